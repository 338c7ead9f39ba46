//go:build unix

package file_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tabletopdb/tabletop/core"
	"github.com/tabletopdb/tabletop/core/backend/file"
	"github.com/tabletopdb/tabletop/core/model"
)

// writerEnv names the data directory when this test binary runs as the writer process;
// writersEnv, if set, how many goroutines write at once (group commit).
const (
	writerEnv  = "TABLETOP_KILL_WRITER_DIR"
	writersEnv = "TABLETOP_KILL_WRITERS"
)

// TestMain turns the test binary into the writer process when writerEnv is set.
func TestMain(m *testing.M) {
	if dir := os.Getenv(writerEnv); dir != "" {
		if n, _ := strconv.Atoi(os.Getenv(writersEnv)); n > 0 {
			runWriters(dir, n)
		}
		runWriter(dir)
		return
	}
	os.Exit(m.Run())
}

// runWriter inserts entities forever under SyncAlways, printing "ack RK" after each
// acknowledged write, until it is killed.
func runWriter(dir string) {
	b, err := file.Open(dir, file.Options{Sync: file.SyncAlways})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	s, err := core.Open(core.Options{Backend: b, CompactAfter: 32 << 10})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	s.CreateTable("acked")
	for i := 0; ; i++ {
		rk := fmt.Sprintf("%08d", i)
		e := &model.Entity{PartitionKey: "p", RowKey: rk, Properties: []model.Property{
			{Name: "N", Value: model.Int64Value(int64(i) << 40)},
			{Name: "Pad", Value: model.StringValue(strings.Repeat("x", 200))},
		}}
		if _, err := s.Apply("acked", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("ack", rk)
	}
}

// TestBackend_SIGKILLKeepsAcknowledgedWrites kills a writer process mid-stream and checks
// that every write it acknowledged under SyncAlways is there after reopening, compaction
// included (the writer compacts every 32 KiB of log).
func TestBackend_SIGKILLKeepsAcknowledgedWrites(t *testing.T) {
	for round := range 3 {
		t.Run(fmt.Sprintf("round=%d", round), func(t *testing.T) {
			dir := t.TempDir()
			acked := killWriterAfter(t, dir, 300+round*250)
			s, err := core.Open(core.Options{Backend: openFile(t, dir)})
			if err != nil {
				t.Fatalf("reopen after SIGKILL: %v", err)
			}
			defer s.Close()
			for i, rk := range acked {
				e, err := s.Get("acked", "p", rk)
				if err != nil {
					t.Fatalf("acknowledged write %s lost: %v", rk, err)
				}
				if v, _ := e.Get("N"); v != model.Int64Value(int64(i)<<40) {
					t.Fatalf("write %s came back as %v", rk, v)
				}
			}
			t.Logf("%d acknowledged writes all present", len(acked))
		})
	}
}

// killWriterAfter starts the writer, reads acknowledgements until it has n, sends SIGKILL
// and returns the acknowledged RowKeys.
func killWriterAfter(t *testing.T, dir string, n int, env ...string) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), writerEnv+"="+dir), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	var acked []string
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(acked) < n {
		line := sc.Text()
		if rk, ok := strings.CutPrefix(line, "ack "); ok {
			acked = append(acked, rk)
			continue
		}
		t.Fatalf("writer: %s", line)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if len(acked) < n {
		t.Fatalf("writer stopped after %d acknowledgements", len(acked))
	}
	return acked
}

// runWriters inserts entities forever from n goroutines at once under SyncAlways, so that
// commits share fsyncs, printing "ack RK" after each acknowledged write, until killed.
// Entity (p, "WW-IIIIIIII") has N = WW<<40 | IIIIIIII.
func runWriters(dir string, n int) {
	b, err := file.Open(dir, file.Options{Sync: file.SyncAlways})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	s, err := core.Open(core.Options{Backend: b, CompactAfter: 32 << 10})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	s.CreateTable("acked")
	for w := range n {
		go func() {
			for i := 0; ; i++ {
				rk := fmt.Sprintf("%02d-%08d", w, i)
				e := &model.Entity{PartitionKey: "p", RowKey: rk, Properties: []model.Property{
					{Name: "N", Value: model.Int64Value(int64(w)<<40 | int64(i))},
					{Name: "Pad", Value: model.StringValue(strings.Repeat("x", 200))},
				}}
				if _, err := s.Apply("acked", core.Op{Kind: core.OpInsert, Entity: e}); err != nil {
					fmt.Println("error", err)
					os.Exit(1)
				}
				fmt.Println("ack", rk)
			}
		}()
	}
	select {}
}

// TestBackend_SIGKILLDuringGroupCommit kills a process whose 16 writers share fsyncs
// (compacting every 32 KiB of log) and checks that every write acknowledged to any of
// them is there after reopening, with its value.
func TestBackend_SIGKILLDuringGroupCommit(t *testing.T) {
	for round := range 2 {
		t.Run(fmt.Sprintf("round=%d", round), func(t *testing.T) {
			dir := t.TempDir()
			acked := killWriterAfter(t, dir, 600+round*400, writersEnv+"=16")
			s, err := core.Open(core.Options{Backend: openFile(t, dir)})
			if err != nil {
				t.Fatalf("reopen after SIGKILL: %v", err)
			}
			defer s.Close()
			for _, rk := range acked {
				var w, i int64
				fmt.Sscanf(rk, "%02d-%08d", &w, &i)
				e, err := s.Get("acked", "p", rk)
				if err != nil {
					t.Fatalf("acknowledged write %s lost: %v", rk, err)
				}
				if v, _ := e.Get("N"); v != model.Int64Value(w<<40|i) {
					t.Fatalf("write %s came back as %v", rk, v)
				}
			}
			t.Logf("%d acknowledged writes all present", len(acked))
		})
	}
}
