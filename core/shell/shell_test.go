package shell

import (
	"strings"
	"testing"
)

// programs lists the literal program word of each simple command, with
// markers for pipeline position and opacity, and each other statement as
// its kind in braces.
func programs(t *testing.T, src string) []string {
	t.Helper()
	s, err := Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	var out []string
	for _, c := range s.Commands {
		name := c.Words[0].Raw
		if c.Kind != Simple {
			name = "{" + strings.Fields(c.Kind.String())[0] + "}"
		}
		if c.PipeLen > 1 {
			name += "|" + string(rune('0'+c.PipeIndex))
		}
		if c.Opaque {
			name += "!"
		}
		out = append(out, name)
	}
	return out
}

func TestSimpleCommands(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"git status", "git"},
		{"git status && npm test", "git npm"},
		{"a || b; c & d", "a b c d"},
		{"a\nb\n\nc", "a b c"},
		{"(a; b) && { c; }", "a b c"},
		{"a | b | c", "a|0 b|1 c|2"},
		{"a |& b", "a|0 b|1"},
		{"if a; then b; elif c; then d; else e; fi", "a b c d e"},
		{"while a; do b; done; until c; do d; done", "a b c d"},
		{"for x in git status; do e $x; done", "e"},
		{"case $x in ls) a;; git) b;& *) c;;& esac", "a b c"},
		{"f() { a; }; f", "a f"},
		{"time a", "a"},
		{"! a", "a"},
		{"[[ -f x || -d y ]] && a", "{test} a"},
		{"(( x > 1 )) || a", "{arithmetic} a"},
		{"X=1", "{assignment}"},
		{"X=1 a", "a"},
		{"export A=1; a", "{declaration} a"},
		{"{ a; b; } | c", "a! b! c|1"},
		{"a | while read l; do b; done", "a|0 read! b!"},
		{"echo $(a; b) `c`", "echo a! b! c!"},
		{"a <(b) >(c)", "a b! c!"},
		{"coproc a", "a!"},
		{"a # b; c", "a"},
		{"let x=1 && local -r y; a", "{let} {declaration} a"},
		{"for ((i=0; i<2; i++)); do a; done", "{arithmetic} a"},
		{"x=1 | a", "{assignment}|0 a|1"},
		{"echo $(X=1)", "echo {assignment}!"},
	}
	for _, c := range cases {
		got := strings.Join(programs(t, c.src), " ")
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
}

func TestUnsafe(t *testing.T) {
	cases := map[string]string{
		"git log > out.txt":      "redirect > into a file",
		"git log >> out.txt":     "redirect >> into a file",
		"git log &> out.txt":     "redirect &> into a file",
		"git log >| out.txt":     "redirect >| into a file",
		"git log >& out.txt":     "redirect >& into a file",
		"git log 2> err.txt":     "redirect > into a file",
		"cat < in.txt":           "redirect < into a file",
		"cat <<EOF\nx\nEOF":      "heredoc",
		"cat <<-EOF\n\tx\n\tEOF": "heredoc",
		"grep x <<< $v":          "here-string",
		"echo $(git status)":     "command substitution $(…)",
		"echo `git status`":      "backtick command substitution",
		"diff <(a) b":            "process substitution",
		"echo $((1+2))":          "arithmetic expansion $((…))",
		"{ git status; } > f":    "redirect > into a file",
	}
	for src, want := range cases {
		s, err := Parse(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if len(s.Unsafe) == 0 || s.Unsafe[0] != want {
			t.Errorf("%q: unsafe = %q, want %q", src, s.Unsafe, want)
		}
	}
	for _, src := range []string{
		"git status 2>&1", "git status >&2", "git status 2>/dev/null", "git status >/dev/null",
		"git status &>/dev/null", "a 3>&1 1>&2 2>&3", "a >&-", "a 2>&-", "echo '$(x)' '`y`'", "echo \"a\\$(b)\"",
	} {
		s, err := Parse(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if len(s.Unsafe) != 0 {
			t.Errorf("%q: unexpectedly unsafe: %q", src, s.Unsafe)
		}
	}
}

func TestWordValues(t *testing.T) {
	cases := []struct {
		src     string
		values  []string
		literal []bool
	}{
		{`git "status" 'x y' a\ b`, []string{"git", "status", "x y", "a b"}, []bool{true, true, true, true}},
		{`g\it "a\"b" "\x"`, []string{"git", `a"b`, `\x`}, []bool{true, true, true}},
		{`git $x "$y" *.go ~/a {a,b}`, []string{"git", "", "", "", "", ""}, []bool{true, false, false, false, false, false}},
		{`a $'x'`, []string{"a", ""}, []bool{true, false}},
	}
	for _, c := range cases {
		s, err := Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		ws := s.Commands[0].Words
		if len(ws) != len(c.values) {
			t.Fatalf("%q: %d words", c.src, len(ws))
		}
		for i, w := range ws {
			if w.Literal != c.literal[i] || (w.Literal && w.Value != c.values[i]) {
				t.Errorf("%q word %d: got (%q, %v), want (%q, %v)", c.src, i, w.Value, w.Literal, c.values[i], c.literal[i])
			}
			if c.src[w.Start:w.End] != w.Raw {
				t.Errorf("%q word %d: Raw %q is not src[%d:%d]", c.src, i, w.Raw, w.Start, w.End)
			}
		}
	}
}

func TestPeel(t *testing.T) {
	cases := []struct {
		src      string
		prog     string // "" = not ok
		disabled bool
	}{
		{"git status", "git", false},
		{"A=1 B=2 git status", "git", false},
		{"env git status", "git", false},
		{"env -C /tmp A=1 -- git status", "git", false},
		// gotk in front would not run the same program
		{"env -u X --unset=Y -C /tmp A=1 -- git status", "git", false},
		{"env -i -u X --unset=Y -C /tmp A=1 -- git status", "", false},
		{"env -uPATH git status", "", false},
		{"env -i git status", "", false},
		{"env -u PATH git status", "", false},
		{"env --unset=PATH git status", "", false},
		{"env PATH=/usr/bin git status", "", false},
		{"env - git status", "", false},
		{"exec -c git status", "", false},
		{"env -S 'git status'", "", false},
		{"timeout 5 git status", "git", false},
		{"timeout -s KILL -k 2 1.5m git status", "git", false},
		{"timeout --signal=TERM --preserve-status 10s git", "git", false},
		{"timeout git status", "", false},
		{"nice -n 10 git", "git", false},
		{"nice -5 git", "git", false},
		{"nice git", "git", false},
		{"nohup git status", "git", false},
		{"command git status", "git", false},
		{"command -v git", "", false},
		{"command -p git", "", false},
		{"exec git status", "git", false},
		{"exec -a x git", "", false},
		{"noglob git status", "git", false},
		{"builtin cd", "", false},
		{"timeout 5 nice -n 1 nohup env A=1 git status", "git", false},
		{"GOTK_DISABLED=1 git status", "git", true},
		{"RTK_DISABLED=1 git status", "git", true},
		{"env GOTK_DISABLED=1 git status", "git", true},
		{"XGOTK_DISABLED=1 git status", "git", false},
		{"direnv exec . git status", "direnv", false},
		{"sudo git status", "sudo", false},
		{"$X status", "$X", false},
		{"nohup", "", false},
	}
	for _, c := range cases {
		s, err := Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		cmd := s.Commands[0]
		p, ok := cmd.Peel(nil)
		got := ""
		if ok {
			got = cmd.Words[p.Prog].Raw
		}
		if got != c.prog || (ok && p.Disabled != c.disabled) {
			t.Errorf("%q: prog %q disabled %v, want %q %v", c.src, got, p.Disabled, c.prog, c.disabled)
		}
	}
	// user prefixes, longest first, composed with built-in wrappers
	s, _ := Parse("nice -n 1 direnv exec . timeout 3 git status")
	p, ok := s.Commands[0].Peel([][]string{{"direnv", "exec"}, {"direnv", "exec", "."}})
	if !ok || s.Commands[0].Words[p.Prog].Raw != "git" {
		t.Errorf("prefixes: got %+v %v", p, ok)
	}
	// 11 layers is too deep
	s, _ = Parse(strings.Repeat("nohup ", 11) + "git status")
	if _, ok := s.Commands[0].Peel(nil); ok {
		t.Error("11 wrappers: want not ok")
	}
}

func TestInsert(t *testing.T) {
	src := "a && b | c"
	if got := Insert(src, []int{9, 0, 5, 5}, "gotk "); got != "gotk a && gotk b | gotk c" {
		t.Errorf("Insert: %q", got)
	}
	if got := Insert(src, nil, "x"); got != src {
		t.Errorf("Insert(nil): %q", got)
	}
}

func TestParseError(t *testing.T) {
	for _, src := range []string{"git status &&", "if a; then", "echo 'unterminated", "a | | b", ")"} {
		if _, err := Parse(src); err == nil {
			t.Errorf("%q: want a parse error", src)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"git status && npm test", "a | b |& c", "case x in a) b;; esac", "cat <<E\nx\nE", "echo $(a) `b` <(c)", "x=1 env -u A timeout 3 git log > f 2>&1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src)
		if err != nil {
			return
		}
		for _, c := range s.Commands {
			if c.Start < 0 || c.End > len(src) || c.Start > c.End {
				t.Fatalf("bad span %d..%d in %q", c.Start, c.End, src)
			}
			for _, w := range c.Words {
				if src[w.Start:w.End] != w.Raw {
					t.Fatalf("word raw mismatch in %q", src)
				}
			}
			c.Peel([][]string{{"direnv", "exec"}})
		}
	})
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "''",
		"/usr/local/bin/gotk": "/usr/local/bin/gotk",
		"/opt/my tools/gotk":  "'/opt/my tools/gotk'",
		"it's":                `'it'\''s'`,
		"a$b":                 "'a$b'",
		"x=1,y:2@%+":          "x=1,y:2@%+",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
		if in == "" {
			continue
		}
		s, err := Parse("echo " + Quote(in))
		if err != nil || !s.Commands[0].Words[1].Literal || s.Commands[0].Words[1].Value != in {
			t.Errorf("Quote(%q) does not read back: %v", in, err)
		}
	}
}
