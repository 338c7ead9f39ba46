//go:build !js

package native

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// The environment variables that profile the server, off when unset; the side-by-side
// benchmark sets them (worker/native/bench/run.sh, BENCH_PROFILE). Read the files with
// go tool pprof.
const (
	// cpuProfileEnv names the file a CPU profile of the whole run is written to.
	cpuProfileEnv = "TABLETOP_CPUPROFILE"
	// memProfileEnv names the file the allocation profile (every allocation since the
	// start, by site) is written to when the server stops.
	memProfileEnv = "TABLETOP_MEMPROFILE"
	// mutexProfileEnv names the file the mutex profile is written to when the server stops:
	// where goroutines waited for a sync.Mutex another held (every contention sampled).
	mutexProfileEnv = "TABLETOP_MUTEXPROFILE"
	// blockProfileEnv names the file the block profile is written to when the server
	// stops: where goroutines waited (on mutexes, channels, select), every event sampled.
	blockProfileEnv = "TABLETOP_BLOCKPROFILE"
)

// startProfiles starts the profiles the environment asks for (getenv) and returns the
// function that ends them and writes them out; with neither variable set it does nothing.
func startProfiles(getenv func(string) string) (stop func() error, err error) {
	cpuPath, memPath := getenv(cpuProfileEnv), getenv(memProfileEnv)
	mutexPath, blockPath := getenv(mutexProfileEnv), getenv(blockProfileEnv)
	if mutexPath != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if blockPath != "" {
		runtime.SetBlockProfileRate(1)
	}
	var cpu *os.File
	if cpuPath != "" {
		if cpu, err = os.Create(cpuPath); err != nil {
			return nil, fmt.Errorf("create cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("start cpu profile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			errs = append(errs, cpu.Close())
		}
		if memPath != "" {
			errs = append(errs, writeAllocs(memPath))
		}
		if mutexPath != "" {
			errs = append(errs, writeProfile("mutex", mutexPath))
		}
		if blockPath != "" {
			errs = append(errs, writeProfile("block", blockPath))
		}
		return errors.Join(errs...)
	}, nil
}

// writeAllocs writes the allocation profile to path.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create memory profile: %w", err)
	}
	runtime.GC() // the profile counts allocations up to the last collection
	err = pprof.Lookup("allocs").WriteTo(f, 0)
	return errors.Join(err, f.Close())
}

// writeProfile writes the runtime profile name (pprof.Lookup) to path.
func writeProfile(name, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s profile: %w", name, err)
	}
	err = pprof.Lookup(name).WriteTo(f, 0)
	return errors.Join(err, f.Close())
}
