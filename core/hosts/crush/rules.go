package crush

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
)

// crushBanned are the programs Crush's shell never executes.
var crushBanned = []string{"alias", "aria2c", "axel", "chrome", "curl", "curlie", "firefox", "http-prompt", "httpie",
	"links", "lynx", "nc", "safari", "scp", "ssh", "telnet", "w3m", "wget", "xh", "doas", "su", "sudo", "apk", "apt",
	"apt-cache", "apt-get", "dnf", "dpkg", "emerge", "home-manager", "makepkg", "opkg", "pacman", "paru", "pkg",
	"pkg_add", "pkg_delete", "portage", "rpm", "yay", "yum", "zypper", "at", "batch", "chkconfig", "crontab", "fdisk",
	"mkfs", "mount", "parted", "service", "systemctl", "umount", "firewall-cmd", "ifconfig", "ip", "iptables",
	"netstat", "pfctl", "route", "ufw"}

// crushBlock is one argument block: program, leading operands, flags.
type crushBlock struct {
	prog        string
	args, flags []string
}

// crushBlocked are its argument blocks.
var crushBlocked = []crushBlock{
	{"apk", []string{"add"}, nil}, {"apt", []string{"install"}, nil}, {"apt-get", []string{"install"}, nil},
	{"dnf", []string{"install"}, nil}, {"pacman", nil, []string{"-S"}}, {"pkg", []string{"install"}, nil},
	{"yum", []string{"install"}, nil}, {"zypper", []string{"install"}, nil}, {"brew", []string{"install"}, nil},
	{"cargo", []string{"install"}, nil}, {"gem", []string{"install"}, nil}, {"go", []string{"install"}, nil},
	{"npm", []string{"install"}, []string{"--global"}}, {"npm", []string{"install"}, []string{"-g"}},
	{"pip", []string{"install"}, []string{"--user"}}, {"pip3", []string{"install"}, []string{"--user"}},
	{"pnpm", []string{"add"}, []string{"--global"}}, {"pnpm", []string{"add"}, []string{"-g"}},
	{"yarn", []string{"global", "add"}, nil}, {"go", []string{"test"}, []string{"-exec"}},
}

// Load gives Crush's (charmbracelet/crush) built-in rules.
//
// Crush asks permission for a bash command unless it is on its read-only
// list — checked on the REWRITTEN command — so the hook answers "allow"
// exactly for an original on that list (Safe) and nothing
// otherwise; every other check is per tool (permissions.allowed_tools, a
// session's approvals, `crush run`, --yolo) and sees the original and the
// rewrite alike. What Crush checks per program is its shell's block list:
// it refuses to execute banned programs (curl, sudo, apt…) and some
// argument forms (`go install`, `npm install -g`, `go test -exec`…), looking
// at the program its embedded shell runs — which behind gotk is gotk. Those
// are deny rules here, matched at any word.
func Load(r *permission.Rules, env permission.Env) {
	r.Deny = append(r.Deny, permission.Rule{Pattern: "block list", Raw: "banned programs and argument forms", Source: "Crush's shell block list (built in)", Test: crushBlocks})
}

// crushBlocks: a word of cmd, as the program, is one Crush's shell would
// refuse to execute with the words after it, or one it refuses with some
// words and is followed by a word whose value gotk cannot know. Crush looks
// only at the program the shell runs; any word here.
func crushBlocks(cmd string) bool {
	w := strings.Fields(cmd)
	for i := range w {
		w[i] = strings.NewReplacer(`"`, "", `'`, "").Replace(w[i])
	}
	for at, word := range w {
		prog := filepath.Base(word)
		if slices.Contains(crushBanned, prog) {
			return true
		}
		if slices.ContainsFunc(w[at+1:], unknownWord) && slices.ContainsFunc(crushBlocked, func(b crushBlock) bool { return b.prog == prog }) {
			// Crush's shell looks at the words it expanded: a variable,
			// substitution or glob may become `install` or `-exec`.
			return true
		}
		var args, flags []string
		for _, a := range w[at+1:] {
			if strings.HasPrefix(a, "-") {
				f, _, _ := strings.Cut(a, "=")
				flags = append(flags, f)
			} else {
				args = append(args, a)
			}
		}
		for _, b := range crushBlocked {
			if prog != b.prog || len(args) < len(b.args) {
				continue
			}
			ok := true
			for i, a := range b.args {
				if args[i] != a {
					ok = false
				}
			}
			for _, f := range b.flags {
				if !slices.Contains(flags, f) {
					ok = false
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// unknownWord: a word whose value is known only when it runs — spelled NUL
// in the decision's reading of the words as the shell passes them, and
// holding $ or a backquote as typed.
func unknownWord(w string) bool { return strings.ContainsAny(w, "\x00$`") }
