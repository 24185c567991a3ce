package discover

import (
	"unicode/utf8"

	"github.com/gotk-dev/gotk/runner/tokens"
)

// Tokens are counted with o200k_base, the encoding `gotk gain --exact`
// uses (the same tiktoken-go codec). Counting is the slow part of a scan
// (~8 MB/s a core), so each worker has its own counter, and an output past
// countCap is counted on its first countCap bytes and scaled by length:
// the agents keep far less than that of one command (Claude Code 30,000
// characters), and memory stays bounded.
const countCap = 256 << 10

type counter struct {
	enc tokens.Counter // nil: no encoder linked, bytes/4
}

func newCounter() *counter {
	enc, _ := tokens.O200k()
	return &counter{enc: enc}
}

// count returns the o200k tokens of s.
func (c *counter) count(s string) int64 {
	if s == "" {
		return 0
	}
	cut := s
	if len(s) > countCap {
		n := countCap
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		cut = s[:n]
	}
	if c.enc == nil {
		return int64(len(s) / 4) // the runner's bytes/4 estimate
	}
	n, err := c.enc.Count(cut)
	if err != nil {
		return int64(len(s) / 4) // the runner's bytes/4 estimate; o200k never fails on text
	}
	if len(cut) < len(s) {
		return int64(float64(n) * float64(len(s)) / float64(len(cut)))
	}
	return int64(n)
}
