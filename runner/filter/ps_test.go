package filter

import (
	"strings"
	"testing"
)

// TestPsKernelThreads: kernel threads fold into one line that names them
// all with counts, in ps aux and ps -ef alike; a bracketed command with
// memory of its own (a renamed user process) stays; output that is not a
// ps listing is left to the declarative filter.
func TestPsKernelThreads(t *testing.T) {
	aux := `USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
root         1  0.4  0.0  46072 14916 ?        S<Ll 03:01   0:08 /sbin/init
root         2  0.0  0.0      0     0 ?        S    03:01   0:00 [kthreadd]
root        10  0.0  0.0      0     0 ?        I<   03:01   0:01 [kworker/0:0H-kblockd]
root        11  0.0  0.0      0     0 ?        I    03:01   0:00 [kworker/0:1-mm_percpu_wq]
app        900  1.0  0.5 120000  9000 ?        Sl   03:02   0:03 [my worker]
app        901  1.0  0.5 120000  9000 pts/0    Sl   03:02   0:03 node server.js --port 3000
`
	ef := `UID          PID    PPID  C STIME TTY          TIME CMD
root           1       0  0 03:01 ?        00:00:08 /sbin/init
root           2       0  0 03:01 ?        00:00:00 [kthreadd]
root           3       2  0 03:01 ?        00:00:00 [ksoftirqd/0]
root           4       2  0 03:01 ?        00:00:00 [ksoftirqd/1]
app          901     1  0 03:02 pts/0    00:00:03 node server.js
`
	for _, tc := range []struct {
		name, in   string
		want, gone []string
		note       string
	}{
		{"aux", aux, []string{"/sbin/init", "[my worker]", "node server.js --port 3000", "USER       PID"}, []string{"[kthreadd]", "kblockd"},
			"(3 kernel threads not shown: kthreadd, kworker/* ×2; gotk recall TEST01)"},
		{"ef", ef, []string{"/sbin/init", "node server.js", "UID          PID"}, []string{"[kthreadd]", "[ksoftirqd/0]"},
			"(3 kernel threads not shown: kthreadd, ksoftirqd/* ×2; gotk recall TEST01)"},
		{"not ps", "a b c\n[x]\n[y]\n", []string{"[x]", "[y]"}, nil, ""},
	} {
		out, err := psList{}.Render(Input{Stdout: []byte(tc.in), Recall: func() string { return "gotk recall TEST01" }})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := string(out.Stdout)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lost:\n%s", tc.name, w, got)
			}
		}
		for _, g := range tc.gone {
			if strings.Contains(got, g) {
				t.Errorf("%s: %q still shown:\n%s", tc.name, g, got)
			}
		}
		if tc.note != "" && !strings.HasSuffix(got, tc.note+"\n") {
			t.Errorf("%s: no fold line %q:\n%s", tc.name, tc.note, got)
		}
	}
}
