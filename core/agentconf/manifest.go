package agentconf

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/internal/sum256"
)

// manifest.go: $XDG_DATA_HOME/gotk/installed.json, the record of what
// gotk-install owns — each file, the entry in it, the scope, and what
// undoing it needs. Only gotk-install writes it, under its lock.

// Part kinds: what gotk puts in a file.
const (
	KindJSONHook = "json-hook" // an entry in a JSON settings file
	KindBlock    = "block"     // a marked block of text (or Vibe's inline hook)
	KindTOMLFlag = "toml-flag" // a top-level TOML key set to true
	KindFile     = "file"      // a whole file of gotk's
)

// Manifest is the content of installed.json.
type Manifest struct {
	Version int      `json:"version"`
	Entries []Record `json:"entries"`
	// DataDirs are the folders gotk-install made to hold this file (and
	// its lock): they go with it when they are empty.
	DataDirs []string `json:"dataDirs,omitempty"`
}

// Record is one thing gotk-install put in one file.
type Record struct {
	Agent       string      `json:"agent"`
	Scope       string      `json:"scope"`
	Kind        string      `json:"kind"` // one of the Kind constants
	File        string      `json:"file"` // absolute path, as the agent names it
	Entry       string      `json:"entry,omitempty"`
	Command     string      `json:"command,omitempty"` // json-hook: the command gotk's entry runs, which identifies it
	SHA256      string      `json:"sha256,omitempty"`  // whole files gotk wrote
	CreatedFile bool        `json:"createdFile,omitempty"`
	CreatedDirs []string    `json:"createdDirs,omitempty"`
	JSON        *JSONUndo   `json:"json,omitempty"`
	Block       *BlockUndo  `json:"block,omitempty"`
	Inline      *InlineUndo `json:"inline,omitempty"`
	Flag        *FlagUndo   `json:"flag,omitempty"`
}

// ManifestPath is where the manifest lives.
func ManifestPath(e *Env) string { return filepath.Join(e.DataDir(), "installed.json") }

// LoadManifest reads the manifest; a missing file is an empty manifest.
func LoadManifest(e *Env) (*Manifest, error) {
	p := ManifestPath(e)
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return &Manifest{Version: 1}, nil
	}
	if err != nil {
		return nil, err
	}
	m := &Manifest{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("%s: invalid manifest: %v", p, err)
	}
	return m, nil
}

// Find returns the record for (agent, kind, file), or nil.
func (m *Manifest) Find(agent, kind, file string) *Record {
	for i := range m.Entries {
		r := &m.Entries[i]
		if r.Agent == agent && r.Kind == kind && r.File == file {
			return r
		}
	}
	return nil
}

// Created is every file and folder gotk-install made, by path.
func (m *Manifest) Created() map[string]bool {
	ours := map[string]bool{}
	for _, r := range m.Entries {
		if r.CreatedFile {
			ours[r.File] = true
		}
		for _, d := range r.CreatedDirs {
			ours[d] = true
		}
	}
	return ours
}

// Recorded reports whether the manifest holds anything of agent a.
func (m *Manifest) Recorded(a string) bool {
	for _, r := range m.Entries {
		if r.Agent == a {
			return true
		}
	}
	return false
}

// Sum returns the hex SHA-256 of b.
func Sum(b []byte) string {
	s := sum256.Sum(b)
	return hex.EncodeToString(s[:])
}
