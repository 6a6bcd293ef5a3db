package shell

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/eukhe/eukhe/gate"
)

// Past the map's bound (the third red team): a repository made in a
// directory the first map did not list (a monorepo's, a node_modules')
// was never found. The map stays bounded — its memory and the stat of
// every directory before each process — but what it left out is walked
// whole at every refresh, listing directories only (no stat: the entry
// types come with the listing), and every protected entry found there
// that the walk before did not find is taken as made. A session on a
// tree past the bound pays that walk for each process that may write
// (BenchmarkProtectedTreeBeyond).

// walkBeyond walks every frontier directory not mapped since, a few side
// by side, and gives the protected entries below them with their inodes
// (one swapped in at the same path is another entry), the links, and the
// directories shut to the user (shutDir, the rule the map's treeDir.shut
// keeps) with their change times: what is in one is not known, as in the
// map (refresh takes one shut since the last walk as made, and the
// sandbox refuses a writing process while one is in the roots). A
// protected entry is not descended into, nor is a link.
func (t *protectedTree) walkBeyond() (found, links map[string]uint64, shut map[string]timespec) {
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		stack   []string
		pending int
	)
	found, links, shut = map[string]uint64{}, map[string]uint64{}, map[string]timespec{}
	for _, f := range t.frontier {
		if _, mapped := t.dirs[f]; !mapped {
			stack = append(stack, f)
		}
	}
	pending = len(stack)
	const workers = 4
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				for len(stack) == 0 && pending > 0 {
					cond.Wait()
				}
				if len(stack) == 0 {
					mu.Unlock()
					return
				}
				dir := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				mu.Unlock()
				var subs []string
				hits, ls := map[string]uint64{}, map[string]uint64{}
				inode := func(de os.DirEntry) uint64 {
					if info, err := de.Info(); err == nil {
						if ino, ok := inodeOf(filepath.Join(dir, de.Name()), info); ok {
							return ino
						}
					}
					return 1
				}
				des, shutAt, isShut := listBeyond(dir)
				if !isShut {
					for _, de := range des {
						p := filepath.Join(dir, de.Name())
						switch {
						case gate.NameIn(t.names, de.Name()) || !de.IsDir() && t.shadow.shadows(dir, de.Name()):
							hits[p] = inode(de)
						case de.Type()&os.ModeSymlink != 0:
							ls[p] = inode(de)
						case de.IsDir():
							subs = append(subs, p)
						}
					}
				}
				mu.Lock()
				if isShut {
					shut[dir] = shutAt
				}
				for h, ino := range hits {
					found[h] = ino
				}
				for l, ino := range ls {
					links[l] = ino
				}
				stack = append(stack, subs...)
				pending += len(subs) - 1
				cond.Broadcast()
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return found, links, shut
}

// listBeyond lists dir for walkBeyond, as the system lists it (no stat
// of the entries): its entries, or, when it is shut to the user
// (shutDir: the open failed, or the cheap pre-check fileStat.mayShut
// says it may be), its change time and none. The open's fstat is what
// the pre-check costs: a stat of each directory past the bound.
func listBeyond(dir string) (des []os.DirEntry, shutAt timespec, shut bool) {
	f, st, ok := openDirNoFollow(dir)
	if !ok {
		if s, shut := shutDir(dir); shut {
			return nil, s.ctime, true
		}
		return nil, timespec{}, false
	}
	defer f.Close()
	if st.mayShut {
		if s, shut := shutDir(dir); shut {
			return nil, s.ctime, true
		}
	}
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, timespec{}, false
	}
	return des, timespec{}, false
}

// readDirUnsorted is a directory's entries as the system lists them, with
// their types and no stat (os.ReadDir would also sort them).
func readDirUnsorted(dir string) ([]os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
