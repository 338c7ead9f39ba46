package transfer

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Progress reports a copy as it runs: on a terminal a bar redrawn in place (entities,
// entities/s, ETA when the source knows its size), otherwise a line every few seconds of
// space-separated key=value pairs, and a last line when the copy ends:
//
//	progress entities=120000 rate=24000/s elapsed=5.0s table=people
//	done entities=250000 failed=0 rate=25000/s elapsed=10.0s
type Progress struct {
	w        io.Writer
	terminal bool
	every    time.Duration
	source   Source
	start    time.Time
	n        atomic.Int64
	mu       sync.Mutex
	current  string
	stop     chan struct{}
	stopped  sync.WaitGroup
}

// NewProgress reports to w (nil: not at all), as a bar when terminal.
func NewProgress(w io.Writer, terminal bool) *Progress {
	every := 2 * time.Second
	if terminal {
		every = 200 * time.Millisecond
	}
	return &Progress{w: w, terminal: terminal, every: every}
}

// Start begins reporting the copy from src.
func (p *Progress) Start(src Source) {
	if p == nil {
		return
	}
	p.source, p.start, p.stop = src, time.Now(), make(chan struct{})
	if p.w == nil {
		return
	}
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		t := time.NewTicker(p.every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.report()
			case <-p.stop:
				return
			}
		}
	}()
}

// Finish stops reporting and writes the last line.
func (p *Progress) Finish(failed int, err error) {
	if p == nil || p.stop == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	if p.w == nil {
		return
	}
	if p.terminal {
		fmt.Fprint(p.w, "\r\033[K")
	}
	status := "done"
	if err != nil {
		status = "stopped"
	}
	el := time.Since(p.start)
	fmt.Fprintf(p.w, "%s entities=%d failed=%d rate=%.0f/s elapsed=%.1fs\n", status, p.n.Load(), failed, rate(p.n.Load(), el), el.Seconds())
}

// Entities returns how many entities were written.
func (p *Progress) Entities() int64 {
	if p == nil {
		return 0
	}
	return p.n.Load()
}

func (p *Progress) add(n int) {
	if p != nil {
		p.n.Add(int64(n))
	}
}

func (p *Progress) table(name string) {
	if p != nil {
		p.mu.Lock()
		p.current = name
		p.mu.Unlock()
	}
}

func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// report writes the bar or the line.
func (p *Progress) report() {
	n, el := p.n.Load(), time.Since(p.start)
	p.mu.Lock()
	table := p.current
	p.mu.Unlock()
	frac := -1.0
	if s, ok := p.source.(sized); ok {
		if done, total := s.Position(); total > 0 {
			frac = float64(done) / float64(total)
		}
	}
	if !p.terminal {
		fmt.Fprintf(p.w, "progress entities=%d rate=%.0f/s elapsed=%.1fs table=%s\n", n, rate(n, el), el.Seconds(), table)
		return
	}
	eta := "ETA ?"
	bar := strings.Repeat("·", 20)
	if frac >= 0 {
		filled := int(frac * 20)
		bar = strings.Repeat("█", filled) + strings.Repeat("·", 20-filled)
		if frac > 0 {
			eta = "ETA " + (time.Duration(float64(el)/frac) - el).Round(time.Second).String()
		}
	}
	fmt.Fprintf(p.w, "\r\033[K%s %s: %d entities, %.0f/s, %s", bar, table, n, rate(n, el), eta)
}
