---@brief
---
--- https://github.com/utf8lint/utf8lint
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

--- Fixes of what the buffer holds are edits of the buffer. After the server
--- rewrites a file on disk (the fixes only the bytes can take, through
--- `utf8lint.applyFix` and `utf8lint.fixAll`: a BOM removed, a file
--- converted to UTF-8), it sends `utf8lint/didRewriteFile`. Each unmodified buffer of that
--- file is then re-read with `:edit`, so that 'bomb' and 'fileencoding'
--- follow the file: otherwise the next `:w` would write the old BOM or the
--- old encoding back and undo the fix. A modified buffer is left alone (the
--- server does not offer disk fixes for one anyway).

---@param params { uri: string }
local function did_rewrite_file(_, params)
  local ok, name = pcall(vim.uri_to_fname, params and params.uri or '')
  if not ok then
    return
  end
  local buf = vim.fn.bufnr(name)
  if buf == -1 or not vim.api.nvim_buf_is_loaded(buf) or vim.bo[buf].modified then
    return
  end
  vim.api.nvim_buf_call(buf, function()
    vim.cmd.edit()
  end)
end

---@type vim.lsp.Config
return {
  cmd = { 'utf8lint', 'lsp' },
  root_markers = { 'utf8lint.toml', '.editorconfig', '.git' },
  settings = {},
  handlers = {
    ['utf8lint/didRewriteFile'] = did_rewrite_file,
  },
}
