package install

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// manifest.go: $XDG_DATA_HOME/gotk/installed.json, the record of what
// gotk-install owns — each file, the entry in it, the scope, and what undoing
// it needs. Only gotk-install writes it, under the install lock.

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
	Kind        string      `json:"kind"` // json-hook, block, toml-flag, file
	File        string      `json:"file"` // absolute path, as the agent names it
	Entry       string      `json:"entry,omitempty"`
	Command     string      `json:"command,omitempty"` // json-hook: the command gotk's entry runs, which identifies it
	SHA256      string      `json:"sha256,omitempty"`  // whole files gotk wrote
	CreatedFile bool        `json:"createdFile,omitempty"`
	CreatedDirs []string    `json:"createdDirs,omitempty"`
	JSON        *jsonUndo   `json:"json,omitempty"`
	Block       *blockUndo  `json:"block,omitempty"`
	Inline      *inlineUndo `json:"inline,omitempty"`
	Flag        *flagUndo   `json:"flag,omitempty"`
}

func manifestPath(e *Env) string { return filepath.Join(e.dataDir(), "installed.json") }

// LoadManifest reads the manifest; a missing file is an empty manifest.
func LoadManifest(e *Env) (*Manifest, error) {
	p := manifestPath(e)
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

func (m *Manifest) put(r Record) {
	m.drop(r.Agent, r.Kind, r.File)
	m.Entries = append(m.Entries, r)
	sort.SliceStable(m.Entries, func(i, j int) bool {
		if m.Entries[i].Agent != m.Entries[j].Agent {
			return m.Entries[i].Agent < m.Entries[j].Agent
		}
		return m.Entries[i].File < m.Entries[j].File
	})
}

func (m *Manifest) drop(agent, kind, file string) {
	out := m.Entries[:0]
	for _, r := range m.Entries {
		if !(r.Agent == agent && r.Kind == kind && r.File == file) {
			out = append(out, r)
		}
	}
	m.Entries = out
}

func (m *Manifest) save(e *Env) error {
	p := manifestPath(e)
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

// created is every file and folder gotk-install made, by path.
func (m *Manifest) created() map[string]bool {
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

// Sum returns the hex SHA-256 of b.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
