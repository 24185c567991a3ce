package runner

import (
	"os"
	"path/filepath"
)

// projectDir is the project a run belongs to: the nearest ancestor of dir
// holding .git (a directory, or a file in worktrees and submodules), found
// without running git; else dir itself.
func projectDir(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// project is the current project, or "" when the working directory is
// unknown.
func (a *app) project() string {
	wd, err := a.getwd()
	if err != nil {
		return ""
	}
	return projectDir(wd)
}
