package filter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// table renders column tables (docker ps, docker images, helm list,
// kubectl get): columns whose value is the same in every row are named
// once on top, the others are written with single-space gaps... unless a
// cell holds spaces, in which case the table keeps its alignment.
type table struct{ same }

// tableOwnFormat are flags by which the user chose the output.
var tableOwnFormat = []string{"--format", "-q", "--quiet", "-o", "--output", "--no-trunc"}

// Render folds constant columns.
func (table) Render(in Input) (Output, error) {
	if userHas(in.Argv, in.Tool, tableOwnFormat...) {
		return Output{Stdout: join(capLines(lines(in.Stdout), 500, 450, in)), Stderr: foldedStderr(in)}, nil
	}
	return Output{Stdout: join(capLines(foldTable(lines(in.Stdout)), 300, 250, in)), Stderr: foldedStderr(in)}, nil
}

// columnStarts finds where each header column starts: a header word after
// two or more blanks (headers like "CONTAINER ID" hold single blanks).
func columnStarts(h string) []int {
	starts := []int{0}
	for i := 1; i < len(h); i++ {
		if h[i] != ' ' && h[i-1] == ' ' && i >= 2 && h[i-2] == ' ' {
			starts = append(starts, i)
		}
	}
	return starts
}

// foldTable splits rows at the header's column starts; columns constant
// over 3+ rows move to a note line. Rows that do not fit the header leave
// the table as it was.
func foldTable(ll []string) []string {
	if len(ll) < 4 {
		return ll
	}
	starts := columnStarts(ll[0])
	tabbed := strings.Contains(ll[0], "\t")
	if len(starts) < 2 && !tabbed {
		return ll
	}
	cells := func(l string) ([]string, bool) {
		if tabbed {
			f := strings.Split(l, "\t")
			if len(f) != strings.Count(ll[0], "\t")+1 {
				return nil, false
			}
			for i := range f {
				f[i] = strings.TrimSpace(f[i])
			}
			return f, true
		}
		out := make([]string, len(starts))
		for i, s := range starts {
			if s > len(l) {
				return nil, false
			}
			if s > 0 && l[s-1] != ' ' {
				return nil, false // a cell runs into the next column
			}
			e := len(l)
			if i+1 < len(starts) && starts[i+1] < e {
				e = starts[i+1]
			}
			out[i] = strings.TrimSpace(l[s:e])
		}
		return out, true
	}
	header, _ := cells(ll[0])
	if tabbed {
		starts = make([]int, len(header))
	}
	var rows [][]string
	for _, l := range ll[1:] {
		c, ok := cells(l)
		if !ok {
			return ll
		}
		rows = append(rows, c)
	}
	constant := make([]bool, len(starts))
	var notes []string
	for i := range starts {
		constant[i] = true
		for _, r := range rows {
			if r[i] != rows[0][i] {
				constant[i] = false
				break
			}
		}
		if constant[i] {
			notes = append(notes, header[i]+"="+orNone(rows[0][i]))
		}
	}
	if len(notes) == 0 {
		return ll
	}
	var out []string
	out = append(out, "(every row: "+strings.Join(notes, ", ")+")")
	keep := func(r []string) string {
		var w []string
		for i, c := range r {
			if !constant[i] {
				w = append(w, orNone(c))
			}
		}
		return strings.Join(w, "  ")
	}
	out = append(out, keep(header))
	for _, r := range rows {
		out = append(out, keep(r))
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// logs renders docker logs and kubectl logs: consecutive lines equal but
// for their timestamp fold into one line with a count, long periodic
// cycles of lines fold to their first and last round; very long logs are
// capped keeping every error and warning line.
type logs struct{ same }

var logStamp = lazy(`^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s*|^\[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?\s*|^\w{3} \d\d \d\d:\d\d:\d\d\s*|^\d{2}/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\s*`)

// Render folds repeats and caps.
func (logs) Render(in Input) (Output, error) {
	out := foldBlocks(foldLogs(lines(in.Stdout), in), in)
	out = capKeeping(out, 300, problem, in)
	return Output{Stdout: join(out), Stderr: join(foldBlocks(foldLogs(lines(in.Stderr), in), in))}, nil
}

// blockRepeats is how many times in a row a block of lines must recur
// before foldBlocks folds it: a short repetition is worth reading, a long
// periodic cycle (poll, process, process…) is not.
const blockRepeats = 5

// foldBlocks folds a cycle of 2 to 12 lines (after foldLogs) that recurs
// blockRepeats or more times in a row, equal but for timestamps and
// numbers: the first and the last cycle stay, the ones between are named
// with the recall hint. A cycle holding an error or warning line is never
// folded.
func foldBlocks(ll []string, in Input) []string {
	shape := make([]string, len(ll))
	for i, l := range ll {
		shape[i] = digits.ReplaceAllString(logStamp.ReplaceAllString(embeddedStamp.ReplaceAllString(l, "<t>"), ""), "0")
	}
	same := func(a, b, k int) bool {
		for x := range k {
			if shape[a+x] != shape[b+x] {
				return false
			}
		}
		return true
	}
	var out []string
	for i := 0; i < len(ll); {
		folded := false
		for k := 2; k <= 12 && i+k*blockRepeats <= len(ll); k++ {
			clean := true
			for _, l := range ll[i : i+k] {
				if problem.MatchString(l) {
					clean = false
					break
				}
			}
			if !clean {
				break
			}
			r := 1
			for i+(r+1)*k <= len(ll) && same(i, i+r*k, k) {
				r++
			}
			if r < blockRepeats {
				continue
			}
			last := i + (r-1)*k
			out = append(out, ll[i:i+k]...)
			out = append(out, fmt.Sprintf("  … these %d lines recur %d more times (timestamps and numbers differ), until %s: %s", k, r-2, stampOf(ll[last-1]), in.Recall()))
			out = append(out, ll[last:last+k]...)
			i = last + k
			folded = true
			break
		}
		if !folded {
			out = append(out, ll[i])
			i++
		}
	}
	return out
}

// foldLogs folds runs of 3+ lines equal after their timestamps are
// removed ("the same N more times", nothing lost) and then runs of 3+
// lines that differ only in numbers ("N more like it", with the recall
// hint, since the numbers are left out).
func foldLogs(ll []string, in Input) []string {
	// Each line's keys once: the regexps are most of the cost.
	stamp := make([]string, len(ll))
	shape := make([]string, len(ll))
	bad := make([]bool, len(ll))
	for i, l := range ll {
		stamp[i] = logStamp.ReplaceAllString(embeddedStamp.ReplaceAllString(klogStamp.ReplaceAllString(l, "$1 "), "<t>"), "")
		shape[i] = digits.ReplaceAllString(stamp[i], "0")
		bad[i] = problem.MatchString(l)
	}
	var out []string
	for i := 0; i < len(ll); {
		j := i + 1
		for j < len(ll) && stamp[j] == stamp[i] {
			j++
		}
		if n := j - i; n > 2 {
			out = append(out, ll[i], fmt.Sprintf("  … the same %d more times, last: %s", n-1, stampOf(ll[j-1])))
			i = j
			continue
		}
		j = i + 1
		for j < len(ll) && shape[j] == shape[i] && !bad[j] {
			j++
		}
		if n := j - i; n > 2 && !bad[i] {
			out = append(out, ll[i], fmt.Sprintf("  … %d more like it (numbers differ), last: %s: %s", n-1, stampOf(ll[j-1]), in.Recall()))
			i = j
			continue
		}
		out = append(out, ll[i])
		i++
	}
	return out
}

var digits = lazy(`\d+`)

// klogStamp is the header of a klog line (kubectl, helm and most Go
// Kubernetes tools): "E1130 03:44:34.078497    5860 memcache.go:265] ".
// The severity letter stays in the comparison, date, time and pid go.
var klogStamp = lazy(`^([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ `)

// foldedStderr is stderr with repeated log lines folded (foldLogs): a
// client retrying the same failing call prints the same error each time.
func foldedStderr(in Input) []byte {
	if len(in.Stderr) == 0 {
		return in.Stderr
	}
	return join(foldLogs(lines(in.Stderr), in))
}

var embeddedStamp = lazy(`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|\d{2}/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}`)

func stampOf(l string) string {
	if m := klogStamp.FindString(l); m != "" {
		return strings.Fields(m)[1] // the time of day
	}
	if m := embeddedStamp.FindString(l); m != "" {
		return m
	}
	if m := logStamp.FindString(l); m != "" {
		return strings.TrimSpace(m)
	}
	return l
}

// dockerBuild renders BuildKit's plain progress: one line per step with
// its outcome; a failed step's output, the error block and the final
// lines stay verbatim; transfer and extraction chatter goes.
type dockerBuild struct{ same }

var (
	bkLine    = lazy(`^#(\d+) (.*)$`)
	bkOutcome = lazy(`^(DONE [\d.]+s|CACHED|ERROR.*|CANCELED.*)$`)
	bkChatter = lazy(`^(transferring |sha256:|extracting sha256:|resolve |exporting layers|writing image|naming to|unpacking to|exporting manifest|exporting config|exporting attestation|[\d.]+ )`)
	legacy    = []*lazyRegexp{
		lazy(`^ ---> `),
		lazy(`^Removing intermediate container `),
		lazy(`^Sending build context to Docker daemon`),
	}
)

// Render summarises the steps.
func (dockerBuild) Render(in Input) (Output, error) {
	type step struct {
		title, outcome string
		output         []string
	}
	steps := map[string]*step{}
	var order []string
	type loose struct {
		after int // steps seen before it
		line  string
	}
	var other []loose
	src := lines(in.Stderr)
	if len(src) == 0 {
		src = lines(in.Stdout)
	}
	for _, l := range src {
		m := bkLine.FindStringSubmatch(l)
		if m == nil {
			other = append(other, loose{len(order), l})
			continue
		}
		s := steps[m[1]]
		if s == nil {
			s = &step{title: m[2]}
			steps[m[1]] = s
			order = append(order, m[1])
			continue
		}
		switch {
		case bkOutcome.MatchString(m[2]):
			s.outcome = m[2]
		default:
			s.output = append(s.output, m[2])
		}
	}
	// BuildKit repeats a failed step's output in its "------ > [step]:"
	// block; the block is printed verbatim, so the step's copy goes.
	errorBlock := false
	for _, o := range other {
		if strings.HasPrefix(o.line, " > [") {
			errorBlock = true
		}
	}
	var out []string
	oi := 0
	flushOther := func(upTo int) {
		for ; oi < len(other) && other[oi].after <= upTo; oi++ {
			if strings.TrimSpace(other[oi].line) != "" {
				out = append(out, other[oi].line)
			}
		}
	}
	for i, id := range order {
		flushOther(i)
		s := steps[id]
		failed := strings.HasPrefix(s.outcome, "ERROR") || strings.HasPrefix(s.outcome, "CANCELED")
		if (strings.HasPrefix(s.title, "[internal]") || strings.HasPrefix(s.title, "building with ")) && !failed {
			continue
		}
		line := "#" + id + " " + s.title
		switch {
		case s.outcome == "CACHED":
			line += " (cached)"
		case strings.HasPrefix(s.outcome, "DONE"):
			line += " (" + strings.ToLower(s.outcome) + ")"
		case s.outcome != "":
			line += " " + s.outcome
		}
		out = append(out, line)
		if (failed && !errorBlock) || s.outcome == "" {
			for _, o := range s.output {
				if failed || !bkChatter.MatchString(o) {
					out = append(out, "#"+id+" "+o)
				}
			}
		}
	}
	flushOther(len(order))
	out = dropMatching(out, legacy...)
	if len(order) == 0 {
		return lineFilter{noise: legacy, max: 300}.Render(in)
	}
	if len(lines(in.Stderr)) == 0 {
		return Output{Stdout: join(out)}, nil
	}
	return Output{Stdout: in.Stdout, Stderr: join(out)}, nil
}

// kubectlGet renders kubectl get: tables like table; -o json and -o yaml
// without metadata.managedFields and the last-applied-configuration
// annotation (a note names what was left out).
type kubectlGet struct{ same }

var (
	yamlManaged     = lazy(`^(\s*)managedFields:\s*$`)
	yamlLastApplied = lazy(`^(\s*)kubectl\.kubernetes\.io/last-applied-configuration:`)
)

// Render picks by output format.
func (kubectlGet) Render(in Input) (Output, error) {
	format := ""
	args := toolArgs(in.Argv, in.Tool)
	for i, a := range args {
		switch {
		case (a == "-o" || a == "--output") && i+1 < len(args):
			format = args[i+1]
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			format = strings.TrimPrefix(strings.TrimPrefix(a, "-o"), "=")
		case strings.HasPrefix(a, "--output="):
			format = strings.TrimPrefix(a, "--output=")
		}
	}
	switch format {
	case "json":
		b, n, err := dropJSONNoise(in.Stdout)
		if err != nil {
			return Output{}, err
		}
		if n > 0 {
			b = append(b, fmt.Sprintf("(gotk: left out %d managedFields/last-applied-configuration entries: %s)\n", n, in.Recall())...)
		}
		return Output{Stdout: b, Stderr: foldedStderr(in)}, nil
	case "yaml":
		ll, n := dropYAMLNoise(lines(in.Stdout))
		if n > 0 {
			ll = append(ll, fmt.Sprintf("# gotk: left out %d lines of managedFields/last-applied-configuration: %s", n, in.Recall()))
		}
		return Output{Stdout: join(ll), Stderr: foldedStderr(in)}, nil
	case "", "wide":
		return Output{Stdout: join(capLines(foldTable(lines(in.Stdout)), 300, 250, in)), Stderr: foldedStderr(in)}, nil
	}
	return raw(in), nil
}

// dropYAMLNoise removes the managedFields and last-applied blocks.
func dropYAMLNoise(ll []string) ([]string, int) {
	var out []string
	n := 0
	for i := 0; i < len(ll); i++ {
		m := yamlManaged.FindStringSubmatch(ll[i])
		if m == nil {
			m = yamlLastApplied.FindStringSubmatch(ll[i])
		}
		if m == nil {
			out = append(out, ll[i])
			continue
		}
		ind := len(m[1])
		j := i + 1
		for j < len(ll) && (strings.TrimSpace(ll[j]) == "" || len(ll[j])-len(strings.TrimLeft(ll[j], " ")) > ind || (strings.HasPrefix(strings.TrimLeft(ll[j], " "), "- ") && len(ll[j])-len(strings.TrimLeft(ll[j], " ")) == ind && yamlManaged.MatchString(ll[i]))) {
			j++
		}
		n += j - i
		i = j - 1
	}
	return out, n
}

// dropJSONNoise re-indents kubectl's JSON with the noise removed.
func dropJSONNoise(b []byte) ([]byte, int, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, 0, err
	}
	n := 0
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			if md, ok := t["metadata"].(map[string]any); ok {
				if _, ok := md["managedFields"]; ok {
					delete(md, "managedFields")
					n++
				}
				if an, ok := md["annotations"].(map[string]any); ok {
					if _, ok := an["kubectl.kubernetes.io/last-applied-configuration"]; ok {
						delete(an, "kubectl.kubernetes.io/last-applied-configuration")
						n++
					}
				}
			}
			for _, c := range t {
				walk(c)
			}
		case []any:
			for _, c := range t {
				walk(c)
			}
		}
	}
	walk(v)
	if n == 0 {
		return b, 0, nil
	}
	out, err := json.MarshalIndent(v, "", "  ")
	return append(out, '\n'), n, err
}

// kubectlDescribe renders kubectl describe without empty fields
// (`<none>`, blank values) and with repeated events folded.
type kubectlDescribe struct{ same }

var describeEmpty = lazy(`^\s*[\w .\-/]+:\s+(<none>|<unset>)?\s*$`)

// Render drops empty fields; sections with content keep every line.
func (kubectlDescribe) Render(in Input) (Output, error) {
	ll := lines(in.Stdout)
	var out []string
	for i, l := range ll {
		if describeEmpty.MatchString(l) {
			// a section header ("Labels:", "Events:") is followed by a
			// deeper-indented line; only truly empty fields go
			indent := len(l) - len(strings.TrimLeft(l, " "))
			if i+1 < len(ll) && len(ll[i+1])-len(strings.TrimLeft(ll[i+1], " ")) > indent && !strings.Contains(l, "<none>") {
				out = append(out, l)
			}
			continue
		}
		out = append(out, strings.TrimRight(collapseKV(l), " "))
	}
	return Output{Stdout: join(capKeeping(out, 400, problem, in)), Stderr: foldedStderr(in)}, nil
}

// collapseKV collapses the alignment padding after "Key:".
var kvPad = lazy(`^(\s*[\w.\-/ ]+:)\s{2,}`)

func collapseKV(l string) string { return kvPad.ReplaceAllString(l, "$1 ") }

// terraformPlan renders terraform plan (and OpenTofu's tofu plan): the
// refresh lines (counted), the symbol legend and the closing advice go, as
// do attributes whose value is `(known after apply)` (counted); every
// action and changed value stays.
type terraformPlan struct{ same }

var (
	// tfRefresh: a data source or resource read before planning
	tfRefresh = lazy(`: (Refreshing state|Reading|Read complete after)\b`)
	tfNoise   = []*lazyRegexp{
		lazy(`^(Terraform|OpenTofu) used the selected providers to generate the following execution`),
		lazy(`^plan\. Resource actions are indicated with the following symbols:$`),
		lazy(`^\s*[+~-]/?[+~-]? (create|destroy|update in-place|read \(data resources\)|destroy and then create replacement|create replacement and then destroy)$`),
		lazy(`^(Terraform|OpenTofu) will perform the following actions:$`),
		lazy(`^─+$`),
		lazy(`^Note: You didn't use the -out option`),
		lazy(`^guarantee to take exactly these actions if you run "(terraform|tofu) apply" now\.$`),
	}
	tfKnownAfter = lazy(`^\s+[+~] [\w"\-.\[\]]+\s+= \(known after apply\)$`)
)

// Render drops the noise and counts the refreshes and the unknowns.
func (terraformPlan) Render(in Input) (Output, error) {
	var out []string
	known, refreshed := 0, 0
	for _, l := range dropMatching(lines(in.Stdout), tfNoise...) {
		switch {
		case tfKnownAfter.MatchString(l):
			known++
			continue
		case tfRefresh.MatchString(l):
			refreshed++
			continue
		}
		out = append(out, l)
	}
	out = dropBlankRuns(out)
	if refreshed > 0 {
		out = append(out, fmt.Sprintf("(%s not shown: %s)", plural(refreshed, "refresh line", "refresh lines"), in.Recall()))
	}
	if known > 0 {
		out = append(out, fmt.Sprintf("(%s (known after apply) not shown: %s)", plural(known, "attribute", "attributes"), in.Recall()))
	}
	return Output{Stdout: join(out), Stderr: keepStderr(in)}, nil
}

// awsFilter renders the AWS CLI's JSON with the top levels indented and
// everything deeper written compactly on one line; key order and every
// value stay. In a list of objects, the fields every object shares with
// the same value are written once above the list. Text and table output
// are capped only.
type awsFilter struct{ same }

// Render re-indents JSON.
func (awsFilter) Render(in Input) (Output, error) {
	t := bytes.TrimSpace(in.Stdout)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return Output{Stdout: join(capLines(lines(in.Stdout), 500, 450, in)), Stderr: in.Stderr}, nil
	}
	var b bytes.Buffer
	if err := shallowIndent(&b, in.Stdout, 4); err != nil {
		return Output{}, err
	}
	return Output{Stdout: join(capLines(lines(b.Bytes()), 800, 700, in)), Stderr: in.Stderr}, nil
}
