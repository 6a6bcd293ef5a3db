//go:build !darwin && !windows

package gate

// placesOS is the OS whose lists places_os.go appends: the other unixes
// keep the Linux lists as they are.
const placesOS = "linux"
