package chart

import (
	"sync"
	"testing"
)

// TestConcurrent renders every chart from several goroutines at once, as the
// ui and the report may; run with -race to check the shared font cache.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(chartCases))
	for range 2 {
		for _, c := range chartCases {
			wg.Go(func() {
				fig, err := c.build(Options{Lang: LangZH, Width: Px(400), Height: Px(300)})
				if err == nil {
					_, err = fig.PNG()
				}
				if err != nil {
					errs <- err
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestTooSmall renders every chart far below a usable size. gonum/plot then
// computes NaN coordinates, on which its rasterizer never returns, so this
// test hangs (and times out) if the guard in drawSafe/grid is lost.
func TestTooSmall(t *testing.T) {
	for _, c := range chartCases {
		for _, px := range [][2]int{{320, 240}, {60, 40}, {1, 1}} {
			fig, err := c.build(Options{Lang: LangEN, Width: Px(px[0]), Height: Px(px[1])})
			if err != nil {
				t.Fatal(err)
			}
			img := fig.Image()
			if got := img.Bounds().Size(); got.X != px[0] || got.Y != px[1] {
				t.Errorf("%s at %v: image %v", c.name, px, got)
			}
		}
	}
}
