package scale

import (
	"runtime"
	"sync"
	"time"
)

// Peak samples runtime.MemStats while a stage runs and keeps the largest
// HeapInuse and Sys seen. Sampling stops the world briefly, so it is for
// measurement runs, not products.
type Peak struct {
	stop      chan struct{}
	done      sync.WaitGroup
	mu        sync.Mutex
	heap, sys uint64
	startHeap uint64
}

// StartPeak collects garbage, notes the heap in use, and samples every
// `every` until Stop.
func StartPeak(every time.Duration) *Peak {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p := &Peak{stop: make(chan struct{}), startHeap: ms.HeapInuse, heap: ms.HeapInuse, sys: ms.Sys}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
			p.sample()
		}
	}()
	return p
}

func (p *Peak) sample() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.mu.Lock()
	p.heap, p.sys = max(p.heap, ms.HeapInuse), max(p.sys, ms.Sys)
	p.mu.Unlock()
}

// Usage is a stage's memory in MiB: the heap in use when it started (live
// data of earlier stages), the peak heap in use and the peak memory obtained
// from the OS.
type Usage struct {
	StartHeapMB, PeakHeapMB, PeakSysMB float64
}

// Stop takes a last sample, ends sampling and returns the stage's usage.
func (p *Peak) Stop() Usage {
	close(p.stop)
	p.done.Wait()
	p.sample()
	const mb = 1 << 20
	return Usage{StartHeapMB: float64(p.startHeap) / mb, PeakHeapMB: float64(p.heap) / mb, PeakSysMB: float64(p.sys) / mb}
}
