package docs_test

import (
	"testing"

	"github.com/eukhe/eukhe/docs/storetest"
)

// The store conformance suite over the disk store (package lsp runs it
// over the editor's).
func TestStoreConformance_disk(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Rig { return storetest.DiskRig(t.TempDir()) })
}
