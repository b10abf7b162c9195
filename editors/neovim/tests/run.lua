-- Headless end-to-end test of editors/neovim/lsp/utf8lint.lua with the real
-- server. Run from anywhere:
--
--   UTF8LINT_BIN=/path/to/utf8lint nvim --headless --clean -l editors/neovim/tests/run.lua
--
-- (without UTF8LINT_BIN it uses target/debug/utf8lint of this repository).
-- It puts editors/neovim on 'runtimepath', overrides only `cmd` (and adds
-- settings), calls vim.lsp.enable('utf8lint'), opens copies of the byte
-- fixtures in tests/fixtures/, and asserts what vim.diagnostic.get() holds.
-- Prints one line per case and "N passed, N failed, N skipped"; exits 1 on
-- any failure. UTF8LINT_NVIM_SKIP=TEXT skips the cases whose name contains TEXT.

local script = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p')
local tests_dir = vim.fs.dirname(script)
local neovim_dir = vim.fs.dirname(tests_dir)
local repo_root = vim.fs.dirname(vim.fs.dirname(neovim_dir))
local fixtures = vim.fs.joinpath(tests_dir, 'fixtures')

local bin = os.getenv('UTF8LINT_BIN')
if bin == nil or bin == '' then
  bin = vim.fs.joinpath(repo_root, 'target', 'debug', 'utf8lint')
end
bin = vim.fn.fnamemodify(bin, ':p')
local TIMEOUT = tonumber(os.getenv('UTF8LINT_NVIM_TIMEOUT') or '') or 15000

local function out(line)
  io.stdout:write(line .. '\n')
end

if vim.fn.has('nvim-0.11') ~= 1 then
  out('FAIL: Neovim 0.11+ is required, this is ' .. tostring(vim.version()))
  os.exit(1)
end
if vim.fn.executable(bin) ~= 1 then
  out('FAIL: no utf8lint binary at ' .. bin .. ' (build it, or set UTF8LINT_BIN)')
  os.exit(1)
end

-- A workspace of copies: the code action edits a buffer, and utf8lint.toml
-- makes the directory the root (root_markers).
local work = vim.fn.tempname()
vim.fn.mkdir(work, 'p')
for name, kind in vim.fs.dir(fixtures) do
  if kind == 'file' then
    vim.uv.fs_copyfile(vim.fs.joinpath(fixtures, name), vim.fs.joinpath(work, name))
  end
end
vim.uv.fs_copyfile(vim.fs.joinpath(fixtures, 'invalid_byte.txt'), vim.fs.joinpath(work, 'invalid_keep.txt'))
local toml = assert(io.open(vim.fs.joinpath(work, 'utf8lint.toml'), 'w'))
toml:write('# the workspace root for this test\n')
toml:close()

vim.opt.runtimepath:prepend(neovim_dir)
-- The config as shipped, before this test touches it.
local shipped = dofile(vim.fs.joinpath(neovim_dir, 'lsp', 'utf8lint.lua'))

vim.lsp.config('utf8lint', {
  cmd = { bin, 'lsp' },
  settings = { utf8lint = { lints = { stray_feff = 'deny' }, ['workspace-scan'] = false } },
})
vim.lsp.enable('utf8lint')

-- UTF8LINT_NVIM_SKIP='text': skip the cases whose name contains it (plain text).
local skip_pattern = os.getenv('UTF8LINT_NVIM_SKIP')
if skip_pattern == '' then
  skip_pattern = nil
end

local passed, failed, skipped = 0, 0, 0
local function case(name, fn)
  if skip_pattern and name:find(skip_pattern, 1, true) then
    skipped = skipped + 1
    out('skip   ' .. name .. ' (UTF8LINT_NVIM_SKIP)')
    return
  end
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    passed = passed + 1
    out('ok     ' .. name)
  else
    failed = failed + 1
    out('FAILED ' .. name .. '\n' .. tostring(err))
  end
end

local function client_of(buf)
  local clients = vim.lsp.get_clients({ bufnr = buf, name = 'utf8lint' })
  return clients[1]
end

local function describe(buf)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    lines[#lines + 1] = ('  %s %d:%d-%d:%d sev=%d %s'):format(
      tostring(d.code), d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.message
    )
  end
  return #lines > 0 and table.concat(lines, '\n') or '  (no diagnostics)'
end

--- Diagnostics of `buf` with `code`.
local function with_code(buf, code)
  return vim.tbl_filter(function(d)
    return d.code == code
  end, vim.diagnostic.get(buf))
end

--- Waits until `cond()` holds; fails with the buffer's diagnostics.
local function wait(buf, what, cond)
  local ok = vim.wait(TIMEOUT, cond, 50)
  if not ok then
    local c = client_of(buf)
    error(
      ('timed out waiting for %s; client %s; diagnostics:\n%s'):format(
        what,
        c and ('attached, offset_encoding=' .. c.offset_encoding) or 'NOT attached',
        describe(buf)
      ),
      2
    )
  end
end

local function has(ds, lnum, col, end_lnum, end_col)
  for _, d in ipairs(ds) do
    if d.lnum == lnum and d.col == col and d.end_lnum == end_lnum and d.end_col == end_col then
      return d
    end
  end
  return nil
end

local function expect(buf, code, lnum, col, end_lnum, end_col)
  local d = has(with_code(buf, code), lnum, col, end_lnum, end_col)
  if not d then
    error(('expected %s at %d:%d-%d:%d; have:\n%s'):format(code, lnum, col, end_lnum, end_col, describe(buf)), 2)
  end
  return d
end

--- Opens a fixture copy (`opts`: e.g. '++enc=utf-8 ++bad=keep').
local function open(name, opts)
  vim.cmd('silent edit ' .. (opts and (opts .. ' ') or '') .. vim.fn.fnameescape(vim.fs.joinpath(work, name)))
  return vim.api.nvim_get_current_buf()
end

case('the shipped config: cmd, root_markers, no filetypes, settings', function()
  assert(vim.deep_equal(shipped.cmd, { 'utf8lint', 'lsp' }), vim.inspect(shipped.cmd))
  assert(vim.deep_equal(shipped.root_markers, { 'utf8lint.toml', '.editorconfig', '.git' }), vim.inspect(shipped.root_markers))
  assert(shipped.filetypes == nil, 'no filetypes: attach to every buffer')
  assert(type(shipped.settings) == 'table')
  -- vim.lsp.config merged it from the runtimepath with this test's override.
  local merged = vim.lsp.config.utf8lint
  assert(merged.cmd[1] == bin and merged.cmd[2] == 'lsp', vim.inspect(merged.cmd))
  assert(vim.deep_equal(merged.root_markers, shipped.root_markers))
end)

case('stray U+FEFF: U002 in UTF-8 columns after an emoji, deny from settings', function()
  local buf = open('stray_feff.txt')
  -- The server checks once with its defaults, and again once it has read
  -- the settings (workspace/configuration): wait for the configured level.
  wait(buf, 'two U002 at level deny (settings.utf8lint.lints.stray_feff)', function()
    local ds = with_code(buf, 'U002')
    return #ds >= 2 and ds[1].severity == vim.diagnostic.severity.ERROR
  end)
  local c = client_of(buf)
  assert(c.offset_encoding == 'utf-8', 'the server picks utf-8 when Neovim offers it: ' .. c.offset_encoding)
  assert(c.root_dir == vim.fs.normalize(vim.uv.fs_realpath(work)) or c.root_dir == work, 'root_dir ' .. tostring(c.root_dir))
  local at_start = expect(buf, 'U002', 1, 0, 1, 3) -- EF BB BF at a line start
  expect(buf, 'U002', 2, 6, 2, 9) -- after 😀 (4 bytes), ' ', 'x'
  assert(at_start.severity == vim.diagnostic.severity.ERROR, 'settings.utf8lint.lints.stray_feff = deny\n' .. describe(buf))
  assert(at_start.source == 'utf8lint', tostring(at_start.source))
end)

--- The code actions the server offers for `d` (a vim.diagnostic from
--- utf8lint), as the editor's menu asks for them.
local function code_actions(buf, d)
  local lsp_diag = assert(d.user_data and d.user_data.lsp, 'the LSP diagnostic is in user_data.lsp')
  local result = client_of(buf):request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag }, triggerKind = 1 },
  }, TIMEOUT, buf)
  assert(result and not result.err, vim.inspect(result))
  return result.result or {}
end

case('stray U+FEFF: the quick fix deletes it', function()
  local buf = vim.fn.bufnr(vim.fs.joinpath(work, 'stray_feff.txt'))
  assert(buf > 0 and buf == vim.api.nvim_get_current_buf(), 'still in stray_feff.txt')
  local c = client_of(buf)
  local actions = code_actions(buf, expect(buf, 'U002', 1, 0, 1, 3))
  local action
  for _, a in ipairs(actions) do
    if a.kind == 'quickfix' and (action == nil or a.isPreferred) then
      action = a
    end
  end
  assert(action, 'a quickfix: ' .. vim.inspect(actions))
  if not action.edit and action.data ~= nil then
    local resolved = c:request_sync('codeAction/resolve', action, TIMEOUT, buf)
    action = assert(resolved and resolved.result, vim.inspect(resolved))
  end
  assert(action.edit, 'the quickfix has an edit: ' .. vim.inspect(action))
  vim.lsp.util.apply_workspace_edit(action.edit, c.offset_encoding)
  assert(vim.api.nvim_buf_get_lines(buf, 1, 2, true)[1] == 'second line', vim.inspect(vim.api.nvim_buf_get_lines(buf, 0, -1, true)))
  wait(buf, 'the U002 on line 2 to go away', function()
    return has(with_code(buf, 'U002'), 1, 0, 1, 3) == nil and has(with_code(buf, 'U002'), 2, 6, 2, 9) ~= nil
  end)
  vim.cmd('silent! write')
end)

case('a BOM on disk: U003 at 0:0 for JSON, though the buffer holds none', function()
  local buf = open('bom.json')
  assert(vim.bo[buf].bomb, "Neovim keeps the BOM in 'bomb', not in the text")
  assert(vim.api.nvim_buf_get_lines(buf, 0, 1, true)[1]:sub(1, 1) == '{')
  wait(buf, 'U003', function()
    return #with_code(buf, 'U003') > 0
  end)
  local d = with_code(buf, 'U003')[1]
  assert(d.lnum == 0 and d.col == 0, describe(buf))
  assert(d.severity == vim.diagnostic.severity.ERROR, describe(buf))
end)

--- Asks for the disk fixes of `d` (a vim.diagnostic from utf8lint) and runs
--- the first one as the editor's code action menu would: the
--- `utf8lint.applyFix` command, executed by the server.
local function run_disk_fix(buf, d)
  local c = client_of(buf)
  local actions = code_actions(buf, d)
  local command
  for _, a in ipairs(actions) do
    if a.command and a.command.command == 'utf8lint.applyFix' then
      command = a.command
      break
    end
  end
  assert(command, 'a disk fix (utf8lint.applyFix): ' .. vim.inspect(actions))
  local done = c:request_sync('workspace/executeCommand', command, TIMEOUT, buf)
  assert(done and not done.err, 'applyFix: ' .. vim.inspect(done))
end

local function disk_bytes(name)
  local f = assert(io.open(vim.fs.joinpath(work, name), 'rb'))
  local bytes = f:read('*a')
  f:close()
  return bytes
end

case("a disk fix strips the BOM: 'bomb' follows the file and :w keeps it gone", function()
  local buf = vim.fn.bufnr(vim.fs.joinpath(work, 'bom.json'))
  assert(buf > 0 and buf == vim.api.nvim_get_current_buf(), 'still in bom.json')
  assert(disk_bytes('bom.json'):sub(1, 3) == '\239\187\191', 'the fixture starts with EF BB BF')
  run_disk_fix(buf, with_code(buf, 'U003')[1])
  assert(disk_bytes('bom.json'):sub(1, 1) == '{', 'the server removed the BOM on disk')
  -- utf8lint/didRewriteFile makes the client re-read the buffer.
  wait(buf, "'bomb' to follow the file on disk", function()
    return not vim.bo[buf].bomb
  end)
  wait(buf, 'the U003 to go away', function()
    return #with_code(buf, 'U003') == 0
  end)
  vim.cmd('silent write')
  local bytes = disk_bytes('bom.json')
  assert(bytes:sub(1, 1) == '{', ':w wrote the BOM back: ' .. vim.inspect(bytes:sub(1, 8)))
end)

case('a disk fix converts a Latin-1 file: the buffer reads it as UTF-8 and :w keeps UTF-8', function()
  local buf = open('latin1.txt')
  assert(vim.bo[buf].fileencoding == 'latin1', "Neovim's fallback: " .. vim.bo[buf].fileencoding)
  local first = 'Le café est très bon, à côté de l\'école où j\'étais élève.'
  assert(vim.api.nvim_buf_get_lines(buf, 0, 1, true)[1] == first, 'latin1 shows the text')
  wait(buf, 'U005', function()
    return #with_code(buf, 'U005') > 0
  end)
  run_disk_fix(buf, with_code(buf, 'U005')[1])
  assert(disk_bytes('latin1.txt'):find('caf\195\169', 1, true), 'the file on disk is UTF-8 now')
  wait(buf, "'fileencoding' to follow the file on disk", function()
    return vim.bo[buf].fileencoding == 'utf-8'
  end)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, true)
  assert(lines[1] == first, 'no mojibake in the buffer: ' .. vim.inspect(lines[1]))
  wait(buf, 'the U005 to go away', function()
    return #with_code(buf, 'U005') == 0
  end)
  vim.cmd('silent write')
  local bytes = disk_bytes('latin1.txt')
  assert(bytes:find('caf\195\169', 1, true) and not bytes:find('caf\233', 1, true), ':w wrote Latin-1 back: ' .. vim.inspect(bytes:sub(1, 16)))
end)

case('an invalid byte under the default fileencodings (opened as latin1)', function()
  local buf = open('invalid_byte.txt')
  assert(vim.bo[buf].fileencoding == 'latin1', "Neovim's fallback: " .. vim.bo[buf].fileencoding)
  wait(buf, 'two U001', function()
    return #with_code(buf, 'U001') >= 2
  end)
  -- In the buffer ÿ is C3 BF (2 bytes) and each byte of 😀 is one latin1 character (2 bytes each).
  expect(buf, 'U001', 0, 4, 0, 6)
  expect(buf, 'U001', 1, 10, 1, 12)
end)

case('an invalid byte opened with ++enc=utf-8 ++bad=keep (raw bytes in the message)', function()
  local buf = open('invalid_keep.txt', '++enc=utf-8 ++bad=keep')
  assert(vim.api.nvim_buf_get_lines(buf, 0, 1, true)[1] == 'abc \255 def', 'raw FF in the buffer')
  wait(buf, 'two U001', function()
    return #with_code(buf, 'U001') >= 2
  end)
  expect(buf, 'U001', 0, 4, 0, 5)
  expect(buf, 'U001', 1, 6, 1, 7)
end)

case('an invalid byte, then a U+FEFF on the same line, opened as latin1', function()
  local buf = open('raw_then_feff.txt')
  assert(vim.bo[buf].fileencoding == 'latin1', vim.bo[buf].fileencoding)
  wait(buf, 'U001 and U002', function()
    return #with_code(buf, 'U001') > 0 and #with_code(buf, 'U002') > 0
  end)
  expect(buf, 'U001', 0, 1, 0, 3) -- ÿ: C3 BF in the buffer
  expect(buf, 'U002', 0, 4, 0, 10) -- EF BB BF as three latin1 characters: ï»¿
end)

case('an invalid byte, then a U+FEFF on the same line, opened with ++bad=keep', function()
  vim.uv.fs_copyfile(vim.fs.joinpath(work, 'raw_then_feff.txt'), vim.fs.joinpath(work, 'raw_then_feff_keep.txt'))
  local buf = open('raw_then_feff_keep.txt', '++enc=utf-8 ++bad=keep')
  assert(vim.api.nvim_buf_get_lines(buf, 0, 1, true)[1] == 'x\255y\239\187\191z', 'raw bytes in the buffer')
  wait(buf, 'U001 and U002', function()
    return #with_code(buf, 'U001') > 0 and #with_code(buf, 'U002') > 0
  end)
  -- Columns count the buffer's bytes: the raw FF is one byte.
  expect(buf, 'U001', 0, 1, 0, 2)
  expect(buf, 'U002', 0, 3, 0, 6)
end)

case('the server is still running', function()
  local c = client_of(vim.api.nvim_get_current_buf())
  assert(c and not c:is_stopped(), 'the client stopped')
  local r = c:request_sync('textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    position = { line = 0, character = 4 },
  }, TIMEOUT, 0)
  assert(r and not r.err, 'hover answered: ' .. vim.inspect(r))
end)

for _, c in ipairs(vim.lsp.get_clients({ name = 'utf8lint' })) do
  c:stop(true)
end
vim.fn.delete(work, 'rf')
out(('%d passed, %d failed, %d skipped'):format(passed, failed, skipped))
os.exit(failed == 0 and 0 or 1)
