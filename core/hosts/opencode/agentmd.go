package opencode

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxAgentFiles bounds the markdown files read from one config directory:
// far above any real set of agents, small enough for a hook.
const maxAgentFiles = 256

// agentMarkdown lists the agent and mode files of an OpenCode (or Kilo)
// config directory, as OpenCode 1.18.33 globs them (its config-agent
// plugin: "{agent,agents}/**/*.md" and "{mode,modes}/*.md"), with the name
// each defines: the path below agent/ without .md, or the mode's base name.
// ok is false when there are more than maxAgentFiles.
func agentMarkdown(dir string) (files []agentFile, ok bool) {
	for _, sub := range []string{"agent", "agents"} {
		root := filepath.Join(dir, sub)
		walkFollow(root, map[string]bool{}, func(p string) bool {
			rel, _ := filepath.Rel(root, p)
			files = append(files, agentFile{p, strings.TrimSuffix(filepath.ToSlash(rel), ".md")})
			return len(files) <= maxAgentFiles
		})
	}
	for _, sub := range []string{"mode", "modes"} {
		m, _ := filepath.Glob(filepath.Join(dir, sub, "*.md"))
		for _, p := range m {
			files = append(files, agentFile{p, strings.TrimSuffix(filepath.Base(p), ".md")})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	return files, len(files) <= maxAgentFiles
}

type agentFile struct{ path, name string }

// walkFollow calls fn for each .md file under dir, following symbolic
// links to directories and files as OpenCode's glob does (Bun.Glob with
// followSymlinks: `.opencode/agents -> ../.claude/agents` is a common
// way to share agents); a directory already visited (by its resolved
// path) is not entered again. fn returns false to stop.
func walkFollow(dir string, seen map[string]bool, fn func(string) bool) bool {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || seen[real] {
		return true
	}
	seen[real] = true
	ents, err := os.ReadDir(dir)
	if err != nil {
		return true
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(p); err == nil && fi.IsDir() { // through a link
			if !walkFollow(p, seen, fn) {
				return false
			}
			continue
		}
		// any other .md, a FIFO or a device too: the reader refuses it
		if strings.HasSuffix(e.Name(), ".md") && !fn(p) {
			return false
		}
	}
	return true
}

// frontmatter decodes the YAML front matter of a markdown file (between a
// first line "---" and the next); none is an empty map.
func frontmatter(data []byte) (map[string]any, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return map[string]any{}, nil
	}
	rest := data[4:]
	end := bytes.Index(rest, []byte("\n---"))
	if bytes.HasPrefix(rest, []byte("---")) {
		end = -1 // empty front matter
		rest = nil
	}
	var fm map[string]any
	if end >= 0 {
		rest = rest[:end+1]
	} else if rest != nil {
		return nil, errUnclosedFrontmatter
	}
	if err := yaml.Unmarshal(rest, &fm); err != nil {
		return nil, err
	}
	if fm == nil {
		fm = map[string]any{}
	}
	return fm, nil
}

type frontmatterError string

func (e frontmatterError) Error() string { return string(e) }

const errUnclosedFrontmatter = frontmatterError("front matter without its closing ---")
