-- Shared by the headless Neovim tests (run by tests/neovim.rs):
--   nvim --headless --clean -l <case>.lua
-- env: UTF8LINT_BIN (the binary), UTF8LINT_FIXTURES (a scratch copy of
-- tests/fixtures/lsp), UTF8LINT_NVIM_DIR (this directory).
local M = {}

M.root = assert(os.getenv('UTF8LINT_FIXTURES'), 'UTF8LINT_FIXTURES is not set')

function M.start()
  -- The shipped config (editors/neovim/lsp/utf8lint.lua: root markers,
  -- handlers), with only the binary and the settings overridden.
  local nvim_dir = assert(os.getenv('UTF8LINT_NVIM_DIR'), 'UTF8LINT_NVIM_DIR is not set')
  vim.opt.runtimepath:prepend(vim.fs.joinpath(nvim_dir, '..', '..', 'editors', 'neovim'))
  vim.lsp.config('utf8lint', {
    cmd = { assert(os.getenv('UTF8LINT_BIN'), 'UTF8LINT_BIN is not set'), 'lsp' },
    settings = { utf8lint = { ['workspace-scan'] = false } },
  })
  vim.lsp.enable('utf8lint')
end

function M.fail(message)
  io.stderr:write('FAIL: ' .. message .. '\n')
  os.exit(1)
end

function M.eq(got, want, what)
  if not vim.deep_equal(got, want) then
    M.fail((what or 'value') .. ': got ' .. vim.inspect(got) .. ', want ' .. vim.inspect(want))
  end
end

function M.ok(cond, message)
  if not cond then
    M.fail(message)
  end
end

-- Waits until the buffer's diagnostics satisfy pred; returns them sorted.
function M.wait_diagnostics(buf, pred, what)
  local ok = vim.wait(10000, function()
    return pred(vim.diagnostic.get(buf))
  end, 20)
  local ds = vim.diagnostic.get(buf)
  if not ok then
    M.fail('timed out waiting for ' .. what .. '; have ' .. vim.inspect(ds))
  end
  table.sort(ds, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return ds
end

function M.client(buf)
  local ok = vim.wait(10000, function()
    return #vim.lsp.get_clients({ bufnr = buf, name = 'utf8lint' }) > 0
  end, 20)
  M.ok(ok, 'utf8lint did not attach')
  return vim.lsp.get_clients({ bufnr = buf, name = 'utf8lint' })[1]
end

-- The code actions the server offers for diagnostic d.
function M.code_actions(buf, d)
  local client = M.client(buf)
  local lsp_d = d.user_data and d.user_data.lsp
  M.ok(lsp_d ~= nil, 'diagnostic without its LSP original: ' .. vim.inspect(d))
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = lsp_d.range,
    context = { diagnostics = { lsp_d } },
  }
  local res, err = client:request_sync('textDocument/codeAction', params, 5000, buf)
  M.ok(res and res.result, 'codeAction failed: ' .. vim.inspect(err or res))
  return res.result, client
end

-- Runs the server's disk fix (`utf8lint.applyFix`) for diagnostic d and
-- waits until it answered that one fix was applied.
function M.apply_disk_fix(buf, d)
  local actions, client = M.code_actions(buf, d)
  local action
  for _, a in ipairs(actions) do
    if a.command and a.command.command == 'utf8lint.applyFix' then
      action = a
    end
  end
  M.ok(action, 'no utf8lint.applyFix action in ' .. vim.inspect(actions))
  local done = false
  client:exec_cmd(action.command, { bufnr = buf }, function(err, result)
    M.ok(err == nil, 'executeCommand failed: ' .. vim.inspect(err))
    M.eq(result.applied, 1, 'fixes applied')
    done = true
  end)
  M.ok(vim.wait(5000, function() return done end, 20), 'executeCommand answered')
end

function M.read(path)
  local f = assert(io.open(path, 'rb'))
  local bytes = f:read('*a')
  f:close()
  return bytes
end

function M.done()
  io.stdout:write('ok\n')
  os.exit(0)
end

return M
