package shell

import (
	"encoding/binary"
	"runtime"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
	"pgregory.net/rapid"
)

// The socket filter, run in x/net/bpf's interpreter over drawn calls:
// another architecture or ABI gets ENOSYS; io_uring_setup gets EACCES; a
// socket of a family the plan forbids gets EACCES (Unix without
// unixOK; anything but Unix and netlink without netOK); every other call
// is allowed.
func TestLaw_the_socket_filter_refuses_exactly_what_the_plan_forbids(t *testing.T) {
	arch, ok := nativeArch()
	if !ok {
		t.Skipf("no filter for %s", runtime.GOARCH)
	}
	rapid.Check(t, func(t *rapid.T) {
		unixOK, netOK := rapid.Bool().Draw(t, "unixOK"), rapid.Bool().Draw(t, "netOK")
		raw, err := socketFilter(unixOK, netOK)
		if err != nil {
			t.Fatal(err)
		}
		insns, ok := bpf.Disassemble(raw)
		if !ok {
			t.Fatalf("the filter does not disassemble")
		}
		vm, err := bpf.NewVM(insns)
		if err != nil {
			t.Fatal(err)
		}
		a := rapid.SampledFrom([]uint32{arch, arch ^ 1}).Draw(t, "arch")
		nr := rapid.SampledFrom([]uint32{unix.SYS_SOCKET, unix.SYS_IO_URING_SETUP, unix.SYS_SOCKETPAIR,
			unix.SYS_CONNECT, unix.SYS_SENDTO, unix.SYS_OPENAT, x32Bit | unix.SYS_SOCKET}).Draw(t, "nr")
		domain := rapid.SampledFrom([]uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK,
			unix.AF_PACKET, unix.AF_VSOCK, 0x100 | unix.AF_UNIX}).Draw(t, "domain")
		// The interpreter loads words big-endian, the kernel in the
		// machine's order: each word is written so that it loads as the
		// kernel would load it.
		data := make([]byte, 64)
		binary.BigEndian.PutUint32(data[dataNr:], nr)
		binary.BigEndian.PutUint32(data[dataArch:], a)
		binary.BigEndian.PutUint32(data[dataArg0:], domain)
		got, err := vm.Run(data)
		if err != nil {
			t.Fatal(err)
		}
		want := uint32(unix.SECCOMP_RET_ALLOW)
		eacces, enosys := unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES), unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS)
		switch {
		case a != arch, runtime.GOARCH == "amd64" && nr >= x32Bit:
			want = enosys
		case nr == unix.SYS_IO_URING_SETUP:
			want = eacces
		case nr != unix.SYS_SOCKET:
		case domain == unix.AF_UNIX:
			if !unixOK {
				want = eacces
			}
		case !netOK && domain != unix.AF_NETLINK:
			want = eacces
		}
		if uint32(got) != want {
			t.Fatalf("unixOK %v netOK %v: call %#x arch %#x domain %#x: %#x, want %#x", unixOK, netOK, nr, a, domain, got, want)
		}
	})
}
