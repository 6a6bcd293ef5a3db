;;; scenario.el --- Eglot against eukhe lsp, with an agent attached  -*- lexical-binding: t -*-

;; Emacs's own LSP client, Eglot, runs `eukhe lsp' over two files of the
;; workspace $EUKHE_ROOT.  The user types unsaved text; an agent (`eukhe
;; mcp', attached to that server through its socket, driven here over
;; stdio) reads it, makes one edit of both files, and runs a gated step
;; whose question Eglot shows with window/showMessageRequest, answered by
;; Enter alone.  What it saw goes to $EUKHE_OUT as JSON; a failure is
;; recorded under "error".
;;
;; Batch mode differs from an interactive Emacs in two ways this script
;; puts back, so Eglot behaves as it does for a user:
;;  - Idle timers never fire in batch (no command loop), and Eglot sends
;;    didChange from one, after `eglot-send-changes-idle-time' without
;;    typing.  `eu-wait' runs due idle timers as the command loop does,
;;    counting idleness from the last key typed.
;;  - The minibuffer of batch mode reads a line from stdin and ignores the
;;    initial input; Eglot pre-fills the first action of a
;;    showMessageRequest there, and in an interactive minibuffer Enter
;;    alone submits what it holds.  `eu-enter' stands in for
;;    `completing-read' and answers what Enter alone answers
;;    interactively: the pre-filled text, else the default, else "".

(require 'eglot)
(require 'cl-lib)

(defvar eu-root (file-name-as-directory (getenv "EUKHE_ROOT")))
(defvar eu-bin (getenv "EUKHE_BIN"))
(defvar eu-out (getenv "EUKHE_OUT"))
(defvar eu-results nil "A plist of what the scenario saw.")
(defvar eu-asked nil "The questions Eglot showed in the minibuffer.")
(defvar eu-last-key (current-time) "When the user last typed.")

(defun eu-note (key value)
  (setq eu-results (plist-put eu-results key value)))

;;; The command loop's idle timers, in batch.

(defun eu-run-idle-timers ()
  "Run each idle timer due after the time since the last key."
  (let ((idle (float-time (time-since eu-last-key))))
    (dolist (timer (copy-sequence timer-idle-list))
      (when (and (memq timer timer-idle-list)
                 (>= idle (float-time (timer--time timer))))
        (timer-event-handler timer)))))

(defun eu-wait (what pred &optional seconds)
  "Run processes and idle timers until PRED holds, or fail naming WHAT."
  (let ((deadline (time-add (current-time) (or seconds 60))))
    (while (not (funcall pred))
      (when (time-less-p deadline (current-time))
        (error "Waited in vain for %s" what))
      (accept-process-output nil 0.02)
      (eu-run-idle-timers))))

(defun eu-idle (seconds)
  "Let SECONDS pass without typing."
  (let ((until (time-add (current-time) seconds)))
    (eu-wait (format "%s idle seconds" seconds) (lambda () (time-less-p until (current-time))) (+ seconds 5))))

(defun eu-type (buffer line text)
  "Type TEXT at the start of LINE of BUFFER, key by key."
  (switch-to-buffer buffer)
  (goto-char (point-min))
  (forward-line (1- line))
  (execute-kbd-macro text)
  (setq eu-last-key (current-time)))

;;; The interactive minibuffer's Enter.

(defun eu-enter (prompt collection &optional _predicate _require-match initial-input _hist def &rest _)
  "What Enter alone submits in an interactive `completing-read'."
  (push (list :prompt (substring-no-properties prompt)
              :choices (vconcat (all-completions "" collection)))
        eu-asked)
  (let ((held (if (consp initial-input) (car initial-input) initial-input)))
    (cond ((and held (not (string-empty-p held))) held)
          ((consp def) (car def))
          (def def)
          (t ""))))

(advice-add 'completing-read :override #'eu-enter)

;; The workspace edits eukhe sent, as Eglot received them.
(defvar eu-edits nil)
(advice-add 'eglot--apply-workspace-edit :before
            (lambda (wedit &rest _) (push (json-serialize wedit) eu-edits)))

;;; The agent: eukhe mcp over stdio, line JSON-RPC.

(defvar eu-mcp nil)
(defvar eu-mcp-lines nil "Lines eukhe mcp wrote, newest first.")
(defvar eu-mcp-partial "")
(defvar eu-mcp-id 0)

(defun eu-server-published ()
  "Whether eukhe lsp has published its socket in the discovery directory
($XDG_RUNTIME_DIR/eukhe, else /tmp/eukhe-UID): an agent started before it
would find no editor and run headless."
  (let ((dir (if (getenv "XDG_RUNTIME_DIR")
                 (expand-file-name "eukhe" (getenv "XDG_RUNTIME_DIR"))
               (format "/tmp/eukhe-%d" (user-uid)))))
    (and (file-directory-p dir) (directory-files dir nil "\\.json\\'"))))

(defun eu-mcp-start ()
  (eu-wait "eukhe lsp to publish its socket" #'eu-server-published 30)
  (let ((default-directory eu-root))
    (setq eu-mcp
          (make-process
           :name "eukhe-mcp" :command (list eu-bin "mcp") :connection-type 'pipe
           :coding 'utf-8-unix :noquery t
           :stderr (get-buffer-create "*eukhe-mcp-stderr*")
           :filter (lambda (_proc out)
                     (let ((parts (split-string (concat eu-mcp-partial out) "\n")))
                       (setq eu-mcp-partial (car (last parts)))
                       (dolist (l (butlast parts))
                         (push l eu-mcp-lines))))))))

(defun eu-mcp-send (obj)
  (process-send-string eu-mcp (concat (json-serialize obj) "\n")))

(defun eu-mcp-rpc (method params)
  "Send METHOD with PARAMS to the agent's server and give its result."
  (let* ((id (cl-incf eu-mcp-id)) reply)
    (eu-mcp-send (list :jsonrpc "2.0" :id id :method method :params params))
    (eu-wait (format "eukhe mcp's answer to %s" method)
             (lambda ()
               (cl-some (lambda (l)
                          (let ((m (ignore-errors (json-parse-string l :object-type 'plist :null-object nil))))
                            (when (equal (plist-get m :id) id)
                              (setq reply m))))
                        eu-mcp-lines)))
    (when (plist-get reply :error)
      (error "%s: %S" method (plist-get reply :error)))
    (plist-get reply :result)))

(defun eu-call (name args)
  "Call the agent's tool NAME with ARGS; its text."
  (let ((r (eu-mcp-rpc "tools/call" (list :name name :arguments args))))
    (plist-get (aref (plist-get r :content) 0) :text)))

(defun eu-tag (text)
  (and (string-match "^\\[[^]#]*#\\([0-9a-f]+\\)\\]" text) (match-string 1 text)))

;;; The scenario.

(defun eu-buffer-text (b)
  (with-current-buffer b (buffer-substring-no-properties (point-min) (point-max))))

(defun eu-scenario ()
  (let* ((a (find-file-noselect (concat eu-root "a.txt")))
         (b (find-file-noselect (concat eu-root "b.txt")))
         (project (cons 'transient eu-root)))
    (with-current-buffer a
      (eglot '(text-mode) project 'eglot-lsp-server (list eu-bin "lsp") '("plaintext")))
    (eu-wait "Eglot to manage both buffers"
             (lambda () (and (buffer-local-value 'eglot--managed-mode a)
                             (buffer-local-value 'eglot--managed-mode b))))
    (eu-note :server (plist-get (eglot--server-info (with-current-buffer a (eglot-current-server))) :name))
    ;; The user types, unsaved, then pauses (Eglot sends didChange after
    ;; its idle time).
    (eu-type a 2 "typed ")
    (eu-idle 1)
    (eu-mcp-start)
    (eu-mcp-rpc "initialize" (list :protocolVersion "2025-06-18" :capabilities #s(hash-table)
                                   :clientInfo (list :name "eglot-test" :version "1")))
    (eu-mcp-send (list :jsonrpc "2.0" :method "notifications/initialized"))
    (let* ((ra (eu-call "read" (list :path "a.txt")))
           (rb (eu-call "read" (list :path "b.txt"))))
      (eu-note :read ra)
      ;; One edit of both files: line 1 of each.
      (eu-note :edit (eu-call "edit"
                              (list :patch (format "[a.txt#%s]\n@@ 1\n+A ONE\n[b.txt#%s]\n@@ 1\n+B ONE\n"
                                                   (eu-tag ra) (eu-tag rb))))))
    (eu-idle 1)
    (eu-note :a (eu-buffer-text a))
    (eu-note :b (eu-buffer-text b))
    (eu-note :a_modified (if (buffer-modified-p a) t :false))
    ;; A gated step: Eglot shows the question; Enter alone answers it.
    (eu-note :gated (eu-call "bash" (list :script "sh -c 'echo ran > gated.txt'")))
    (eu-note :asked (vconcat (reverse eu-asked)))
    (eu-note :read_after (eu-call "read" (list :path "a.txt")))
    (eu-stop a)))

(defun eu-start (a b)
  "Start Eglot on buffers A and B and attach the agent."
  (with-current-buffer a
    (eglot '(text-mode) (cons 'transient eu-root) 'eglot-lsp-server (list eu-bin "lsp") '("plaintext")))
  (eu-wait "Eglot to manage both buffers"
           (lambda () (and (buffer-local-value 'eglot--managed-mode a)
                           (buffer-local-value 'eglot--managed-mode b))))
  (eu-mcp-start)
  (eu-mcp-rpc "initialize" (list :protocolVersion "2025-06-18" :capabilities #s(hash-table)
                                 :clientInfo (list :name "eglot-test" :version "1")))
  (eu-mcp-send (list :jsonrpc "2.0" :method "notifications/initialized")))

(defun eu-stop (a)
  "Detach the agent and shut Eglot's server down; note its exit status.
Eglot kills a server that has not exited shortly after `exit' (status 9)."
  (process-send-eof eu-mcp)
  (eu-wait "eukhe mcp to end" (lambda () (not (process-live-p eu-mcp))) 20)
  (let* ((server (with-current-buffer a (eglot-current-server)))
         (proc (jsonrpc--process server)))
    ;; From a managed buffer, as a user runs it (Eglot 1.17 fails an
    ;; assertion when it is run from another buffer).
    (with-current-buffer a (eglot-shutdown server))
    (eu-wait "eukhe lsp to end" (lambda () (not (process-live-p proc))) 20)
    (eu-note :lsp_exit (process-exit-status proc))))

(defun eu-scenario-typing ()
  "The user types steadily at the end of line $EUKHE_TYPE_LINE (default 3)
of a.txt (a key every 0.1 s, so Eglot's didChange waits for the pause)
while the agent edits line 1."
  (let* ((a (find-file-noselect (concat eu-root "a.txt")))
         (b (find-file-noselect (concat eu-root "b.txt")))
         (keys (string-to-list (getenv "EUKHE_TYPED")))
         (line (string-to-number (or (getenv "EUKHE_TYPE_LINE") "3")))
         (at (with-current-buffer a
               (goto-char (point-min)) (forward-line (1- line)) (end-of-line)
               (copy-marker (point) t)))
         (typist nil))
    (eu-start a b)
    (setq typist
          (run-with-timer
           0 0.1
           (lambda ()
             (if (null keys)
                 (cancel-timer typist)
               (switch-to-buffer a)
               (goto-char at)
               (execute-kbd-macro (string (pop keys)))
               (setq eu-last-key (current-time))))))
    (eu-wait "the user to start typing" (lambda () (> (length (eu-buffer-text a)) 22)))
    (let ((ra (eu-call "read" (list :path "a.txt"))))
      (eu-note :edit (eu-call "edit" (list :patch (format "[a.txt#%s]\n@@ 1\n+A ONE\n" (eu-tag ra))))))
    (eu-note :keys_left_at_reply (length keys))
    (eu-wait "the user to stop typing" (lambda () (null keys)))
    (eu-idle 1.5)
    (eu-note :a (eu-buffer-text a))
    (eu-note :read_after (eu-call "read" (list :path "a.txt")))
    (eu-stop a)))

(defun eu-write-results ()
  (with-temp-file eu-out
    (insert (json-serialize eu-results))))

(condition-case err
    (if (equal (getenv "EUKHE_SCENARIO") "typing") (eu-scenario-typing) (eu-scenario))
  (error (eu-note :error (error-message-string err))))
(eu-note :emacs emacs-version)
(eu-note :mcp_stderr (with-current-buffer (get-buffer-create "*eukhe-mcp-stderr*") (buffer-string)))
(eu-note :edits (vconcat (reverse eu-edits)))
(eu-write-results)
(kill-emacs 0)
