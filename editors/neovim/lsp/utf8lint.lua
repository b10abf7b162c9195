---@brief
---
--- https://example.invalid/utf8lint
---
--- utf8lint finds, explains and safely fixes UTF-8 defects: ill-formed byte
--- sequences, stray U+FEFF, byte-order marks where a format forbids them (or
--- missing where one is required), files in another encoding. Its language
--- server reads each file's bytes from disk, because the buffer cannot show
--- them: Neovim strips a leading BOM ('bomb') and opens a file that is not
--- UTF-8 as latin1 ('fileencodings').
---
--- Install the binary (`cargo install --path .` in a utf8lint checkout puts
--- `utf8lint` in ~/.cargo/bin), then:
---
--- ```lua
--- vim.lsp.enable('utf8lint')
--- ```
---
--- The config has no `filetypes`, so it attaches to every buffer that has a
--- filetype. Settings use the keys of `utf8lint.toml`, under `utf8lint`; each
--- is optional, and `utf8lint.toml` / `.editorconfig` in the project still
--- apply (see the project README for which wins):
---
--- ```lua
--- vim.lsp.config('utf8lint', {
---   settings = {
---     utf8lint = {
---       -- rule name or code -> 'allow' | 'warn' | 'deny'
---       lints = { stray_feff = 'deny', missing_bom = 'allow' },
---       -- glob -> 'forbid' | 'allow' | 'require' (the last match wins)
---       bom = { ['*.csv'] = 'require' },
---       -- at most this many diagnostics per rule and file (0: no cap)
---       ['max-per-file'] = 100,
---       -- scan the whole workspace at start-up and report files not open
---       ['workspace-scan'] = true,
---     },
---   },
--- })
--- ```

---@type vim.lsp.Config
return {
  cmd = { 'utf8lint', 'lsp' },
  root_markers = { 'utf8lint.toml', '.editorconfig', '.git' },
  settings = {},
}
