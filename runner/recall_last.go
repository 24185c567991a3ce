package runner

import (
	"fmt"
	"os"

	"github.com/gotk-dev/gotk/runner/store"
)

// lastKept is the id `gotk recall` shows without one: the newest kept
// output, or the newest spool of a run whose gotk was killed if that came
// later. It says which on stderr; "" and an exit code when nothing is kept.
func (a *app) lastKept(s *store.Store, open bool, dbPath string, spooled []string) (string, int) {
	var id, what string
	var at int64
	if open {
		list, err := s.List()
		if err != nil {
			return "", a.fail("recall: %s: %v", s.Path(), err)
		}
		if len(list) > 0 {
			id, what, at = list[0].ID, list[0].Command, list[0].At.UnixNano()
		}
	}
	for _, sp := range spooled {
		if fi, err := os.Stat(store.SpoolPath(dbPath, sp)); err == nil && fi.ModTime().UnixNano() > at {
			id, what, at = sp, "a run gotk was stopped in", fi.ModTime().UnixNano()
		}
	}
	if id == "" {
		return "", a.fail("recall: nothing kept yet (gotk keeps the raw output of each compact run)")
	}
	fmt.Fprintf(a.stderr, "gotk: recall: the last run, %s: %s (gotk recall --list shows the others)\n", id, what)
	return id, 0
}
