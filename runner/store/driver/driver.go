// Package driver is gotk.db's SQLite driver (modernc.org/sqlite: pure Go,
// no cgo) and the glue store needs from it. Only the binaries that open
// the database link it — gotk-report, and tests — and wire it with
// store.UseDriver(driver.Code, driver.PersistWAL): its package
// initialisers cost every process start ~3.5 ms on a slow machine (half a
// bare Go process), which `gotk <program>` never pays (it appends a
// record to a file).
package driver

import (
	"errors"

	"modernc.org/sqlite" // registers the "sqlite" driver with database/sql
)

// Code is the SQLite result code of a driver error.
func Code(err error) (int, bool) {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return 0, false
	}
	return se.Code(), true
}

// PersistWAL keeps the -wal and -shm files when the last connection
// closes, given database/sql's raw connection.
func PersistWAL(conn any) error {
	fc, ok := conn.(sqlite.FileControl)
	if !ok {
		return nil // another driver: only slower
	}
	_, err := fc.FileControlPersistWAL("main", 1)
	return err
}
