package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// manifest.go: only gotk-install writes the manifest (agentconf reads it),
// under the install lock.

// putRecord records r, replacing the record of the same agent, kind and
// file.
func putRecord(m *agentconf.Manifest, r agentconf.Record) {
	dropRecord(m, r.Agent, r.Kind, r.File)
	m.Entries = append(m.Entries, r)
	sort.SliceStable(m.Entries, func(i, j int) bool {
		if m.Entries[i].Agent != m.Entries[j].Agent {
			return m.Entries[i].Agent < m.Entries[j].Agent
		}
		return m.Entries[i].File < m.Entries[j].File
	})
}

// dropRecord forgets the record of (agent, kind, file).
func dropRecord(m *agentconf.Manifest, agent, kind, file string) {
	out := m.Entries[:0]
	for _, r := range m.Entries {
		if !(r.Agent == agent && r.Kind == kind && r.File == file) {
			out = append(out, r)
		}
	}
	m.Entries = out
}

// saveManifest writes m, private to the user, or removes it (and the data
// folders gotk-install made for it, when empty) once it records nothing.
func saveManifest(m *agentconf.Manifest, e *Env) error {
	p := agentconf.ManifestPath(&e.Env)
	if len(m.Entries) == 0 {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
		removeEmpty(m.DataDirs)
		return nil
	}
	// The data directory also holds gotk.db, which keeps raw command
	// output: it is private to the user (0700), and so is the manifest.
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(p, append(b, '\n'), 0o600)
}
