;;; run.el --- utf8lint's language server in a headless Emacs, through eglot  -*- lexical-binding: t; -*-

;; emacs --batch -Q -l editors/emacs/tests/run.el   (UTF8LINT_BIN: the server)
;; Exit code 0: every step passed; 1: the first that failed says why.
;;
;; A file with a U+FEFF starting its second line (two files concatenated):
;; eglot shows the finding (flymake), its quick fix is an edit that eglot
;; applies to the buffer (the file on disk keeps its bytes until a save),
;; and a bidirectional control typed into the buffer is shown without a
;; save.

(require 'cl-lib)

;; Debian's elpa-eglot (Emacs 28 has no eglot of its own).
(let ((elpa "/usr/share/emacs/site-lisp/elpa"))
  (when (file-directory-p elpa)
    (dolist (dir (directory-files elpa t "\\`[a-z]"))
      (add-to-list 'load-path dir))))
(require 'eglot)
(require 'flymake)

(defun utf8lint-test-fail (format &rest args)
  "Say why the test failed, and exit with 1."
  (message "FAIL: %s" (apply #'format format args))
  (kill-emacs 1))

(defun utf8lint-test-wait (what predicate)
  "Pump events until PREDICATE holds (at most 30 s), else fail with WHAT."
  (let ((deadline (+ (float-time) 30)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall predicate) (utf8lint-test-fail "timed out waiting for %s" what))))

(defun utf8lint-test-messages ()
  "The texts of the buffer's flymake diagnostics."
  (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))

(defun utf8lint-test-shown (regexp)
  "Whether a diagnostic of the buffer matches REGEXP."
  (cl-some (lambda (text) (string-match-p regexp text)) (utf8lint-test-messages)))

(let* ((server (or (getenv "UTF8LINT_BIN") (utf8lint-test-fail "UTF8LINT_BIN is not set")))
       (dir (file-name-as-directory (make-temp-file "utf8lint-eglot" t)))
       (file (expand-file-name "seam.txt" dir))
       (bytes (encode-coding-string "one\n\ufefftwo\n" 'utf-8)))
  (let ((coding-system-for-write 'no-conversion))
    (write-region bytes nil file))
  (find-file file)
  (unless (string= (buffer-string) "one\n\ufefftwo\n")
    (utf8lint-test-fail "the buffer holds %S" (buffer-string)))
  (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server (list server "lsp") "plaintext")
  (utf8lint-test-wait "eglot to connect" (lambda () (eglot-current-server)))
  (utf8lint-test-wait "the U+FEFF's diagnostic" (lambda () (utf8lint-test-shown "start of a line")))
  (message "ok: diagnostics %S" (utf8lint-test-messages))

  ;; The quick fix, picked from eglot's menu as a user would.
  (let ((last-nonmenu-event ?x))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (or (cl-find "delete the stray U+FEFF" (all-completions "" collection)
                              :test #'string=)
                     (utf8lint-test-fail "no \"delete the stray U+FEFF\" among %S"
                                         (all-completions "" collection))))))
      (eglot-code-actions (point-min) (point-max) nil t)))
  (utf8lint-test-wait "the fix in the buffer"
                      (lambda () (string= (buffer-string) "one\ntwo\n")))
  (unless (buffer-modified-p)
    (utf8lint-test-fail "the fix did not go into the buffer"))
  (let ((on-disk (with-temp-buffer
                   (set-buffer-multibyte nil)
                   (insert-file-contents-literally file)
                   (buffer-string))))
    (unless (string= on-disk bytes)
      (utf8lint-test-fail "the file on disk changed before a save: %S" on-disk)))
  (message "ok: the fix is an edit of the buffer: %S" (buffer-string))

  ;; A bidirectional control typed, not saved: shown.
  (goto-char (point-max))
  (insert "x = 1 \u202e reversed\n")
  (eglot--signal-textDocument/didChange)
  (utf8lint-test-wait "the typed control's diagnostic"
                      (lambda () (utf8lint-test-shown "bidirectional control")))
  (message "ok: typed and shown unsaved: %S" (utf8lint-test-messages))
  (set-buffer-modified-p nil)
  (ignore-errors (eglot-shutdown (eglot-current-server)))
  (delete-directory dir t)
  (message "ok: eglot")
  (kill-emacs 0))
