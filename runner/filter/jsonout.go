package filter

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// jsonOut renders commands whose output is JSON the user asked for (jq,
// gh --json, gh api, gcloud --format=json, az, skopeo inspect, curl of a
// JSON API): each value is written again, shallow levels indented and
// deeper ones on one line. Every key, every value and their order stay:
// the output parses as the same JSON value, and it is never cut by a line
// cap (only the runner's overall ceiling, which names gotk recall). Output
// that is not JSON is shown with the generic line cap.
type jsonOut struct{ same }

func (jsonOut) Render(in Input) (Output, error) {
	if out, ok := rewriteJSON(in.Stdout); ok {
		return Output{Stdout: out, Stderr: in.Stderr}, nil
	}
	return Output{Stdout: join(capKeeping(dedupe(lines(in.Stdout)), 400, problem, in)), Stderr: in.Stderr}, nil
}

// rewriteJSON re-encodes a stream of JSON values (jq prints several), or
// reports that stdout is not one.
func rewriteJSON(stdout []byte) ([]byte, bool) {
	t := bytes.TrimSpace(stdout)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(stdout))
	var b bytes.Buffer
	for {
		var raw json.RawMessage
		err := d.Decode(&raw)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false
		}
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return nil, false
		}
		if c.Len() <= 160 {
			b.Write(c.Bytes())
			b.WriteByte('\n')
			continue
		}
		// indented when the tool indented (it reads better), else compact
		n, err := parseJSON(c.Bytes())
		if err != nil {
			return nil, false
		}
		var ind bytes.Buffer
		indentShallow(&ind, n, 0, 3)
		if ind.Len() <= len(raw) {
			b.Write(bytes.TrimRight(ind.Bytes(), "\n"))
		} else {
			b.Write(c.Bytes())
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), true
}

// curlOut is jsonOut for the body, and drops curl's progress meter from
// stderr (curl prints it when stdout is not a terminal, as under gotk).
type curlOut struct{ same }

var curlMeter = []*lazyRegexp{
	lazy(`^\s*% Total\s+% Received % Xferd`),
	lazy(`^\s+Dload\s+Upload\s+Total\s+Spent`),
	lazy(`^\s*\d+\s+[\d.]+[kMG]?\s+\d+\s+[\d.]+[kMG]?\s+\d+\s+[\d.]+[kMG]?\s+[\d.]+[kMG]?\s+[\d.]+[kMG]?\s+(--:--:--|\d+:\d\d:\d\d)`),
}

func (curlOut) Render(in Input) (Output, error) {
	out, err := jsonOut{}.Render(in)
	if err != nil {
		return out, err
	}
	out.Stderr = keepStderr(in, curlMeter...)
	return out, nil
}

// indentShallow writes n with its first depth levels indented and every
// deeper (or short) value on one line: nothing is dropped or folded, so it
// is the same JSON value.
func indentShallow(w *bytes.Buffer, n *jnode, level, depth int) {
	if n.delim == 0 || level >= depth || len(n.kids) == 0 || len(n.compactString()) <= 100 {
		n.compact(w, nil)
		return
	}
	w.WriteByte(n.delim)
	w.WriteByte('\n')
	for i, kid := range n.kids {
		w.WriteString(strings.Repeat("  ", level+1))
		if n.delim == '{' {
			w.Write(n.keys[i])
			w.WriteString(": ")
		}
		indentShallow(w, kid, level+1, depth)
		if i < len(n.kids)-1 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	w.WriteString(strings.Repeat("  ", level))
	w.WriteByte(closer(n.delim))
}
