package lsp

import (
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/eukhe/eukhe/protocol"
)

// How the editor is asked a question, and what it answers with when it
// cannot show one.

// dialog is the form the editor's questions take.
type dialog uint8

const (
	// noDialog: the editor cannot show questions (it answered both forms
	// with MethodNotFound, as Helix does). It is not counted as an
	// interactive client: questions go to the terminals, or end at once.
	noDialog dialog = iota
	// messageDialog: window/showMessageRequest with the actions
	// dialogActions.
	messageDialog
	// approveDialog: eukhe/approve, the client's own modal dialog.
	approveDialog
)

// firstDialog is the form a client is asked in first: eukhe/approve when
// it lists it, else showMessageRequest (a client may implement it without
// announcing window.showMessage: Eglot does).
func firstDialog(implementsApprove bool) dialog {
	if implementsApprove {
		return approveDialog
	}
	return messageDialog
}

// afterFailure is the form to use once a question in form d failed with
// err: a client that answers MethodNotFound does not implement that form,
// so it falls to the next one (and stays there for the connection); any
// other failure (a dialog torn down, the connection ending) leaves the
// form as it was.
func afterFailure(d dialog, err error) dialog {
	if !notImplemented(err) {
		return d
	}
	switch d {
	case approveDialog:
		return messageDialog
	default:
		return noDialog
	}
}

// notImplemented tells whether a request's error is the client's
// MethodNotFound.
func notImplemented(err error) bool {
	var e *jsonrpc2.Error
	return errors.As(err, &e) && e.Code == jsonrpc2.MethodNotFound
}

// The actions of the showMessageRequest form, in the order sent: the
// first one denies, since clients pre-select it (Eglot pre-fills it in the
// minibuffer, so Enter alone sends it). Anything but actionAllow, null (a
// dismissed message) included, is a denial.
const (
	actionDeny  = "Deny"
	actionAllow = "Allow"
)

var dialogActions = []string{actionDeny, actionAllow}

// answerOfAction is the answer an action title gives.
func answerOfAction(title string) string {
	if title == actionAllow {
		return protocol.AnswerApprove
	}
	return protocol.AnswerDeny
}

// unheardText says that the editor cannot show questions, for the agent's
// refusal (route.Unheard) and once to the user.
func unheardText(name string) string {
	if name == "" {
		return "the editor cannot show questions"
	}
	return "the editor (" + name + ") cannot show questions"
}
