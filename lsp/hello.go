package lsp

import (
	"encoding/json"
	"io"

	"github.com/eukhe/eukhe/protocol"
)

// answerHello writes the line that answers a socket's hello.
func answerHello(w io.Writer, a protocol.HelloAnswer) error {
	b, _ := json.Marshal(a)
	_, err := w.Write(append(b, '\n'))
	return err
}
