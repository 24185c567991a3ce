package gain

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/window"
)

// Exact is the o200k recount of the kept samples (raw output and what was
// shown instead), next to the bytes/4 estimate for the same samples.
type Exact struct {
	Samples        int   `json:"samples"`
	RawTokens      int64 `json:"raw_tokens"`   // capped at the agent limit, like the estimate
	ShownTokens    int64 `json:"shown_tokens"` // capped at the agent limit
	SavedTokens    int64 `json:"saved_tokens"`
	EstimatedSaved int64 `json:"estimated_saved_tokens"` // bytes/4 on the same samples
}

// Recount counts the samples' tokens with o200k_base. It is slow (it loads
// a 200k-entry vocabulary): only `gotk gain --exact` calls it.
func Recount(samples []store.Entry, limit int64) (*Exact, error) {
	enc, err := tokens.O200k()
	if err != nil {
		return nil, err
	}
	count := func(b []byte) (int64, error) {
		n, err := enc.Count(string(capUTF8(b, limit)))
		return int64(n), err
	}
	ex := &Exact{}
	for _, s := range samples {
		if s.KeptSize < s.RawSize && s.KeptSize < limit {
			continue // the kept part is shorter than what the agent saw: not a fair sample
		}
		sample := s.Raw
		if w, ok := window.OfCommand(s.Command); ok {
			// a run inside the agent's own head or tail: the agent would
			// have received that window of the raw output, no more
			sample = w.Apply(sample)
		}
		raw, err := count(sample)
		if err != nil {
			return nil, err
		}
		shown, err := count(s.Shown)
		if err != nil {
			return nil, err
		}
		ex.Samples++
		ex.RawTokens += raw
		ex.ShownTokens += shown
		rawB, shownB := min(s.RawSize, limit), min(int64(len(s.Shown)), limit)
		ex.EstimatedSaved += (rawB - shownB) / BytesPerToken
	}
	ex.SavedTokens = ex.RawTokens - ex.ShownTokens
	return ex, nil
}

// capUTF8 keeps at most limit bytes of b, not splitting a character.
func capUTF8(b []byte, limit int64) []byte {
	if int64(len(b)) <= limit {
		return b
	}
	b = b[:limit]
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size > 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}

func (e *Exact) text(w io.Writer) {
	if e.Samples == 0 {
		fmt.Fprintln(w, "exact (o200k): no kept samples to recount (gotk recall --list shows what is kept)")
		return
	}
	fmt.Fprintf(w, "exact (o200k) on %s kept samples: %s raw tokens shown as %s, saved %s (bytes/4 estimated %s)\n",
		Thousands(int64(e.Samples)), Thousands(e.RawTokens), Thousands(e.ShownTokens), Thousands(e.SavedTokens), Thousands(e.EstimatedSaved))
}
