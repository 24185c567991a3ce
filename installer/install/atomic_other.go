//go:build !windows

package install

import (
	"os"

	"github.com/google/renameio/v2"
)

// writeAtomic writes data to path through a temporary file in the same
// directory and a rename, so a reader sees the old file or the new one.
func writeAtomic(path string, data []byte, perm os.FileMode) error {
	return renameio.WriteFile(path, data, perm)
}
