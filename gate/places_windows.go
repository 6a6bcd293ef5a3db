package gate

// placesOS is the OS whose lists places_os.go appends.
const placesOS = "windows"
