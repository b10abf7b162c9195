-- A shell script with a BOM: Neovim strips it ('bomb'), so the finding is
-- reported at 0:0 with a headline that says it is invisible in the editor.
local h = dofile(os.getenv('UTF8LINT_NVIM_DIR') .. '/helper.lua')
h.start()
vim.cmd.edit(h.root .. '/bom.sh')
local buf = vim.api.nvim_get_current_buf()
h.ok(vim.bo[buf].bomb, "'bomb' is set")
h.eq(vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1], '#!/bin/sh', 'first line without the BOM')
local ds = h.wait_diagnostics(buf, function(ds) return #ds >= 1 end, 'U003')
h.eq(#ds, 1, 'number of diagnostics')
h.eq({ ds[1].code, ds[1].lnum, ds[1].col, ds[1].end_lnum, ds[1].end_col }, { 'U003', 0, 0, 0, 0 }, 'U003 at 0:0')
h.ok(ds[1].message:find('invisible in the editor', 1, true), ds[1].message)
h.ok(ds[1].message:find('#!'), ds[1].message)
h.done()
