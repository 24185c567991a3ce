package permissiontest

import "testing"

// Outcome is what a host does with a command, in the tests that hold
// gotk's decision against a model of the host's own matching.
type Outcome int

// The outcomes; OutUnknown is what the model does not cover, never
// compared.
const (
	OutUnknown Outcome = iota
	OutRun             // runs it without asking
	OutAsk             // asks the user
	OutDeny            // refuses it
)

func (o Outcome) String() string { return [...]string{"unknown", "run", "ask", "deny"}[o] }

// Property runs check n times, stopping at the first failure, and fails
// when fewer than min runs reported that they compared something (gotk
// rewrote the line): a property over lines gotk leaves alone tests little.
func Property(t testing.TB, n, min int, check func(i int) (compared bool)) {
	t.Helper()
	compared := 0
	for i := 0; i < n && !t.Failed(); i++ {
		if check(i) {
			compared++
		}
	}
	t.Logf("%d of %d runs compared", compared, n)
	if !t.Failed() && compared < min {
		t.Errorf("only %d of %d runs compared gotk with the host: the property tests little", compared, n)
	}
}
