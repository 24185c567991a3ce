package filter

import (
	"errors"
	"fmt"
	"strings"
)

// compose renders docker compose (and docker-compose) ps, up -d and logs.
//
//   - ps: one line per container, cells joined by "|" without the
//     alignment; the COMMAND column (docker cuts it to 20 characters)
//     is left out and named once with gotk recall; a column whose value
//     is the same in every row is named once on top (as table does).
//   - up: the progress of each network, volume and container comes down to
//     its last state, one line each; image pull layers (Pulling fs layer,
//     Downloading, Extracting…) are counted; every other line (an error
//     from the daemon, "dependency failed to start") stays.
//   - logs: the service prefixes lose their padding ("web-1  | " becomes
//     "web-1| "), a service's blank lines go, and runs of repeated
//     lines fold as docker logs do.
type compose struct{ same }

var (
	// " ✔ Container app-db-1  Started   0.4s", " Network app_default  Creating"
	composeProgress = lazy(`^\s*(?:[✔✘⠿⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\s+)?(Network|Volume|Container|Image)\s+(.+?)\s{2,}(\S.*?)(?:\s+[\d.]+s)?\s*$`)
	composeRunning  = lazy(`^\s*\[\+\] (Running|Building|Pulling|Creating|Stopping|Removing) \d+/\d+\s*$`)
	// pull chatter: " 3f4ca61aafcd Pulling fs layer", " db Pulling", " db Pulled"
	composeLayer  = lazy(`^\s*(?:[✔⠿]\s+)?[0-9a-f]{12} (Pulling fs layer|Waiting|Downloading|Download complete|Verifying Checksum|Extracting|Pull complete|Already exists)`)
	composePull   = lazy(`^\s*(?:[✔⠿]\s+)?(\S+) (Pulling|Pulled)\s*(?:[\d.]+s)?\s*$`)
	composeLogPad = lazy(`^(\S+?)\s+\| `)
)

// Render picks the subcommand's form.
func (compose) Render(in Input) (Output, error) {
	switch composeSub(in.Argv[in.Tool:]) {
	case "ps":
		return composePs(in)
	case "up":
		return composeUp(in)
	case "logs":
		return composeLogs(in)
	}
	return Output{}, errors.New("compose: unknown subcommand")
}

// composeSub is the first of ps, up, logs among the arguments.
func composeSub(args []string) string {
	for _, a := range args {
		switch a {
		case "ps", "up", "logs":
			return a
		}
	}
	return ""
}

func composePs(in Input) (Output, error) {
	ll := lines(in.Stdout)
	if len(ll) == 0 || !strings.HasPrefix(ll[0], "NAME") || composeOwnFormat(in.Argv[in.Tool:]) {
		return Output{Stdout: in.Stdout, Stderr: in.Stderr}, nil
	}
	starts := columnStarts(ll[0])
	head := cells(ll[0], starts)
	var rows [][]string
	for _, l := range ll[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		r := cells(l, starts)
		if len(r) != len(head) {
			return Output{}, errors.New("compose ps: a row does not fit the header")
		}
		rows = append(rows, r)
	}
	var keep []int
	var out, same []string
	left := ""
	for i, h := range head {
		switch {
		case h == "COMMAND":
			left = h
		case len(rows) >= 3 && constant(rows, i):
			same = append(same, h+"="+orNone(rows[0][i]))
		default:
			keep = append(keep, i)
		}
	}
	if len(same) > 0 {
		out = append(out, "all: "+strings.Join(same, ", "))
	}
	line := func(r []string) string {
		var c []string
		for _, i := range keep {
			c = append(c, r[i])
		}
		return strings.Join(c, "|")
	}
	out = append(out, line(head))
	for _, r := range rows {
		out = append(out, line(r))
	}
	if left != "" && len(rows) > 0 {
		out = append(out, fmt.Sprintf("(%s column left out: %s)", left, in.Recall()))
	}
	return Output{Stdout: join(out), Stderr: foldedStderr(in)}, nil
}

// composeOwnFormat reports a format the user chose (--format, -q).
func composeOwnFormat(args []string) bool {
	for _, a := range args {
		if a == "-q" || a == "--quiet" || a == "--format" || strings.HasPrefix(a, "--format=") {
			return true
		}
	}
	return false
}

// cells cuts a row at the header's column starts and trims each cell.
func cells(l string, starts []int) []string {
	var c []string
	for k, s := range starts {
		if s > len(l) {
			c = append(c, "")
			continue
		}
		e := len(l)
		if k+1 < len(starts) && starts[k+1] < e {
			e = starts[k+1]
		}
		c = append(c, strings.TrimSpace(l[s:e]))
	}
	return c
}

func constant(rows [][]string, i int) bool {
	for _, r := range rows[1:] {
		if r[i] != rows[0][i] {
			return false
		}
	}
	return true
}

// composeUp folds the progress of each object to its last state. Compose
// writes its progress to stderr.
func composeUp(in Input) (Output, error) {
	fold := func(b []byte) ([]string, int) {
		var out []string
		at := map[string]int{} // object → its line in out
		layers := 0
		for _, l := range lines(b) {
			t := strings.TrimSpace(l)
			switch {
			case t == "" || composeRunning.MatchString(l):
				continue
			case composeLayer.MatchString(l) || composePull.MatchString(l):
				layers++
				continue
			}
			if m := composeProgress.FindStringSubmatch(l); m != nil {
				key := m[1] + " " + m[2]
				line := key + " " + m[3]
				if i, ok := at[key]; ok {
					out[i] = line
					continue
				}
				at[key] = len(out)
				out = append(out, line)
				continue
			}
			out = append(out, l)
		}
		return out, layers
	}
	errOut, layers := fold(in.Stderr)
	stdOut, more := fold(in.Stdout)
	layers += more
	if layers > 0 {
		errOut = append(errOut, fmt.Sprintf("(%s of image pulls left out: %s)", plural(layers, "line", "lines"), in.Recall()))
	}
	if in.Exit != 0 && len(errOut)+len(stdOut) == 0 {
		return Output{}, errors.New("compose up: nothing left of a failing run")
	}
	return Output{Stdout: join(stdOut), Stderr: join(errOut)}, nil
}

// composeLogs drops the prefix padding, then folds as docker logs.
func composeLogs(in Input) (Output, error) {
	var ll []string
	for _, l := range lines(in.Stdout) {
		l = composeLogPad.ReplaceAllString(l, "$1| ")
		if strings.HasSuffix(strings.TrimRight(l, " "), "|") && !strings.Contains(strings.TrimRight(l, " |"), " ") {
			continue // a service's blank line
		}
		ll = append(ll, l)
	}
	in.Stdout = join(ll)
	return logs{}.Render(in)
}
