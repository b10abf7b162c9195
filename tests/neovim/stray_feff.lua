-- A stray U+FEFF at the start of line 2 (two files concatenated): U002,
-- and its quick fix is a text edit that deletes it from the buffer.
local h = dofile(os.getenv('UTF8LINT_NVIM_DIR') .. '/helper.lua')
h.start()
vim.cmd.edit(h.root .. '/stray_feff.txt')
local buf = vim.api.nvim_get_current_buf()
local ds = h.wait_diagnostics(buf, function(ds) return #ds >= 1 end, 'U002')
h.eq(#ds, 1, 'number of diagnostics')
h.eq({ ds[1].code, ds[1].lnum, ds[1].col, ds[1].end_lnum, ds[1].end_col }, { 'U002', 1, 0, 1, 3 }, 'U002 range')
h.eq(ds[1].severity, vim.diagnostic.severity.WARN, 'severity')
local actions, client = h.code_actions(buf, ds[1])
local action
for _, a in ipairs(actions) do
  if a.edit and a.kind == 'quickfix' then
    action = a
    break
  end
end
h.ok(action, 'no text-edit action in ' .. vim.inspect(actions))
h.ok(action.title:find('delete'), action.title)
vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
h.eq(vim.api.nvim_buf_get_lines(buf, 0, -1, false), { 'first line', 'second line' }, 'buffer after the fix')
h.wait_diagnostics(buf, function(ds) return #ds == 0 end, 'no diagnostics after the edit')
-- Typing a U+FEFF mid-word in the (unsaved) buffer is found in the text.
vim.api.nvim_buf_set_text(buf, 0, 5, 0, 5, { '\239\187\191' })
ds = h.wait_diagnostics(buf, function(ds) return #ds == 1 end, 'U002 in the edited text')
h.eq({ ds[1].code, ds[1].lnum, ds[1].col, ds[1].end_col }, { 'U002', 0, 5, 8 }, 'typed U+FEFF')
h.done()
