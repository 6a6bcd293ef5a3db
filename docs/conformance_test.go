package docs_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/docs/storetest"
)

// The store conformance suite over the disk store (package lsp runs it
// over the editor's).
func TestStoreConformance_disk(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Rig {
		disk := docs.NewDisk()
		var mu sync.Mutex
		failing := ""
		disk.Fault = func(step, path string) error {
			mu.Lock()
			defer mu.Unlock()
			if failing != "" && path == failing && (step == "rename" || step == "link") {
				return errors.New("injected fault")
			}
			return nil
		}
		return storetest.Rig{Root: t.TempDir(), Store: disk, Fail: func(_, target string) {
			mu.Lock()
			failing = target
			mu.Unlock()
		}}
	})
}
