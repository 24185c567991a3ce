package opencode

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxPluginBytes bounds how much of one plugin file gotk reads.
const maxPluginBytes = 8 << 20

// guards marks the rules unreadable when a plugin other than gotk's own,
// in one of dirs' plugin folders ({plugin,plugins}/*.{ts,js}, as OpenCode
// and Kilo load them) or named by path in a config document's "plugin"
// list, registers a tool.execute.before hook. Such a hook runs in load
// order around gotk's and may refuse a command by its text (OpenCode's
// documented way to block tools): after gotk it would see `gotk X`, not X,
// and its refusal is a rule gotk cannot read. A file gotk cannot read
// counts as such a hook. Plugins installed from npm are not read.
func (c *Reader) guards(dirs []string) {
	var files []string
	for _, d := range dirs {
		for _, sub := range []string{"plugin", "plugins"} {
			for _, ext := range []string{"*.ts", "*.js"} {
				m, _ := filepath.Glob(filepath.Join(d, sub, ext))
				files = append(files, m...)
			}
		}
	}
	files = append(files, c.pluginPaths...)
	sort.Strings(files)
	for _, f := range files {
		if c.seen["plugin:"+f] || isGotkPlugin(f) {
			continue
		}
		c.seen["plugin:"+f] = true
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue // a folder is a package OpenCode resolves itself
		}
		hooks, err := registersBefore(f)
		switch {
		case err != nil:
			c.r.MarkUnreadable("gotk: plugin %s: %v", f, err)
		case hooks:
			c.r.MarkUnreadable("gotk: plugin %s has a tool.execute.before hook, which may refuse a command by its text and would see the rewritten one", f)
		}
	}
}

// isGotkPlugin: gotk's own plugin file, as gotk-install writes it (or
// its JavaScript form).
func isGotkPlugin(path string) bool {
	b := filepath.Base(path)
	return b == PluginFile || b == strings.TrimSuffix(PluginFile, ".ts")+".js"
}

// registersBefore: the file's text names the tool.execute.before hook.
func registersBefore(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPluginBytes))
	if err != nil {
		return false, err
	}
	return bytes.Contains(data, []byte("tool.execute.before")), nil
}

// pluginPath is a "plugin" entry that names a file (file://, ./, ../ or
// an absolute path), resolved against the config document's folder; ""
// for an npm package.
func pluginPath(entry any, dir string) string {
	if a, ok := entry.([]any); ok && len(a) > 0 {
		entry = a[0]
	}
	s, ok := entry.(string)
	if !ok {
		return ""
	}
	switch {
	case strings.HasPrefix(s, "file://"):
		return filepath.FromSlash(strings.TrimPrefix(s, "file://"))
	case strings.HasPrefix(s, "./"), strings.HasPrefix(s, "../"):
		return filepath.Join(dir, s)
	case filepath.IsAbs(s):
		return s
	}
	return ""
}
