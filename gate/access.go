package gate

// Access is what a document tool does to a path (G1.5).
type Access uint8

// The accesses the documents gate judges.
const (
	// ReadAccess reads a file or lists a directory.
	ReadAccess Access = iota
	// SearchAccess searches a directory (grep, glob).
	SearchAccess
	// WriteAccess writes, creates, moves or removes.
	WriteAccess
)

func (a Access) String() string {
	switch a {
	case SearchAccess:
		return "search"
	case WriteAccess:
		return "write"
	}
	return "read"
}

// AccessEffects is the G1.5 table: the effects of an access to a path of
// class c, where holds says the path is or holds a secret.
//
//	read or list          read; of a Secret path, read and secret
//	search                read; of a path that is or holds a secret, read and secret
//	write Inside          write
//	write Outside         write and outside
//	write Protected       write and protected
//	write Secret          write and secret
func AccessEffects(a Access, c Class, holds bool) Effects {
	switch a {
	case WriteAccess:
		switch c {
		case ClassOutside:
			return Of(Write, Outside)
		case ClassProtected:
			return Of(Write, Protected)
		case ClassSecret:
			return Of(Write, Secret)
		}
		return Of(Write)
	case SearchAccess:
		if c == ClassSecret || holds {
			return Of(Read, Secret)
		}
		return Of(Read)
	}
	if c == ClassSecret {
		return Of(Read, Secret)
	}
	return Of(Read)
}
