package httpsafe

import (
	"io"
	"time"
)

// IdleReader restarts Timer (to D) on every byte read from R, so a timer
// that fires means the reply stalled — no byte for D — not that it was long.
// The LLM client and the target connectors both stop a stalled reply with it.
type IdleReader struct {
	R     io.Reader
	Timer *time.Timer
	D     time.Duration
}

func (i *IdleReader) Read(p []byte) (int, error) {
	n, err := i.R.Read(p)
	if n > 0 {
		i.Timer.Reset(i.D)
	}
	return n, err
}
