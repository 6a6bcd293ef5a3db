//go:build unix

package shell

// envNamesFold: environment names are case-sensitive on Unix.
const envNamesFold = false
