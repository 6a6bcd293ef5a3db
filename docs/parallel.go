package docs

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// eachParallel runs f(0) … f(n-1) on up to GOMAXPROCS goroutines and
// returns when all have returned; with one item or one processor they run
// in the caller's goroutine, in order.
func eachParallel(n int, f func(i int)) { eachParallelN(runtime.GOMAXPROCS(0), n, f) }

// eachParallelN is eachParallel on up to workers goroutines.
func eachParallelN(workers, n int, f func(i int)) {
	workers = min(n, workers)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
				f(k)
			}
		})
	}
	wg.Wait()
}
