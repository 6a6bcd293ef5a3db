//go:build !windows

package main

import "syscall"

// flushAll writes every file system's dirty pages back (sync(2)).
func flushAll() { syscall.Sync() }
