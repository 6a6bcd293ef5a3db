package agent

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// A call that allocated much (a 50 MB file read, a large edit) leaves
// its buffers to the garbage collector, which runs only as the heap grows
// again, and to the runtime's scavenger, which returns memory slowly: an
// idle session stayed at hundreds of MiB. After such a call, once its
// reply has gone out, the memory is given back to the system at once.

// giveBackAfter is how much a call must allocate to be followed by a
// give-back.
const giveBackAfter = 32 << 20

var (
	allocMu     sync.Mutex // one sample read at a time
	allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	givingBack  atomic.Bool
)

// heapAllocs is the bytes the process allocated so far.
func heapAllocs() uint64 {
	allocMu.Lock()
	defer allocMu.Unlock()
	metrics.Read(allocSample)
	if allocSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return allocSample[0].Value.Uint64()
}

// giveBackIfLarge gives memory back to the system shortly after a call
// that allocated more than giveBackAfter since before (heapAllocs).
func giveBackIfLarge(before uint64) {
	if before == 0 || heapAllocs()-before < giveBackAfter || !givingBack.CompareAndSwap(false, true) {
		return
	}
	time.AfterFunc(50*time.Millisecond, func() {
		defer givingBack.Store(false)
		debug.FreeOSMemory()
	})
}
