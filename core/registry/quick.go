package registry

import (
	"slices"
	"strings"
)

// MayMatch reports whether some rule could take a command of line: some
// word of it, quotes and backslashes removed, names a program the table has
// rows for (the word or its base name), or starts with the literal prefix
// of a user filter. It is false only when Classify finds no rule for any
// command of the line — a sound "no" that costs a scan of the text, so a
// hook asked about a command gotk has nothing for answers without parsing
// the line, reading a config or building the table. Lines it cannot read
// that cheaply (ANSI-C quoting) get true.
func MayMatch(line string) bool {
	if strings.Contains(line, "$'") {
		return true // $'\x67it' is git
	}
	line = strings.ReplaceAll(line, "\\\n", "") // a continued word is one word
	line = strings.Map(func(r rune) rune {
		switch r {
		case '\'', '"', '\\':
			return -1
		}
		return r
	}, line)
	var users *userPrefixes
	for w := range strings.FieldsFuncSeq(line, isBreak) {
		base := w[strings.LastIndexByte(w, '/')+1:]
		if _, ok := slices.BinarySearch(tablePrograms[:], base); ok {
			return true
		}
		if users == nil {
			users = loadUserPrefixes()
		}
		if users.any || users.match(w) || users.match(base) {
			return true
		}
	}
	return false
}

// isBreak: the characters that end a word in the shell's syntax (a quoted
// one has lost its quotes by then, so this may split more than the shell
// does — never less).
func isBreak(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>', '`':
		return true
	}
	return false
}

// userPrefixes are the first words of the user filters' literal prefixes.
type userPrefixes struct {
	any   bool // a filter without a literal prefix: it may match anything
	words []string
}

func loadUserPrefixes() *userPrefixes {
	u := &userPrefixes{}
	m := userFilters()
	if m == nil {
		return u
	}
	for _, p := range m.Prefixes() {
		first, _, _ := strings.Cut(p, " ")
		if first == "" {
			u.any = true
		}
		u.words = append(u.words, first)
	}
	return u
}

// match: a command whose first word is w could match a filter whose
// prefix's first word is a prefix of w (`^tool1` takes tool150).
func (u *userPrefixes) match(w string) bool {
	for _, first := range u.words {
		if strings.HasPrefix(w, first) {
			return true
		}
	}
	return false
}
