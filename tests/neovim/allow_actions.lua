-- The per-rule actions on a U+FEFF in Python: "Allow `stray_feff` on this
-- line" inserts the trailing comment and the finding goes at once; "Fix all
-- `stray_feff` findings in this file" fixes the other two. In JSON, which
-- has no comments, the allow action goes to utf8lint.toml and says why.
local h = dofile(os.getenv('UTF8LINT_NVIM_DIR') .. '/helper.lua')
h.start()
local feff = '\239\187\191'
local path = h.root .. '/join.py'
local f = assert(io.open(path, 'wb'))
f:write('x = \'a' .. feff .. 'b\'\ny = \'c' .. feff .. 'd\'\nz = \'e' .. feff .. 'f\'\n')
f:close()
vim.cmd.edit(path)
local buf = vim.api.nvim_get_current_buf()
local ds = h.wait_diagnostics(buf, function(ds) return #ds == 3 end, 'three U002')

local function find(actions, title)
  for _, a in ipairs(actions) do
    if a.title == title then
      return a
    end
  end
  h.fail('no action `' .. title .. '` in ' .. vim.inspect(vim.tbl_map(function(a) return a.title end, actions)))
end

local actions, client = h.code_actions(buf, ds[1])
find(actions, 'Allow `stray_feff` in this file')
find(actions, 'Fix all `stray_feff` findings in this file')
local allow = find(actions, 'Allow `stray_feff` on this line')
vim.lsp.util.apply_workspace_edit(allow.edit, client.offset_encoding)
h.eq(vim.api.nvim_buf_get_lines(buf, 0, 1, false), { 'x = \'a' .. feff .. 'b\'  # utf8lint: allow(stray_feff)' }, 'line 1 after allow')
ds = h.wait_diagnostics(buf, function(ds) return #ds == 2 end, 'line 1 silenced')
h.eq({ ds[1].lnum, ds[2].lnum }, { 1, 2 }, 'the findings left')

actions = h.code_actions(buf, ds[1])
local fix_all = find(actions, 'Fix all `stray_feff` findings in this file')
vim.lsp.util.apply_workspace_edit(fix_all.edit, client.offset_encoding)
-- In a Python string literal a U+FEFF becomes the literal's escape.
local escape = '\\uFEFF'
h.eq(vim.api.nvim_buf_get_lines(buf, 1, -1, false), { 'y = \'c' .. escape .. 'd\'', 'z = \'e' .. escape .. 'f\'' }, 'lines 2-3 after fix all')
h.wait_diagnostics(buf, function(ds) return #ds == 0 end, 'no findings after fix all')

vim.cmd.edit(h.root .. '/bom.json')
local json = vim.api.nvim_get_current_buf()
ds = h.wait_diagnostics(json, function(ds) return #ds >= 1 end, 'U003')
actions = h.code_actions(json, ds[1])
for _, a in ipairs(actions) do
  h.ok(not a.title:find('on this line') and not a.title:find('in this file$'), 'a comment action in JSON: ' .. a.title)
end
find(actions, 'Allow `forbidden_bom` for this file in utf8lint.toml (JSON has no comments)')
h.done()
