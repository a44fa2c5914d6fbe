-- An author's session in Neovim (0.7 or later), through Neovim's own LSP client: type a broken
-- citation and see its diagnostic, hover, go to the definition, complete a heading, list the
-- references, apply a code action, rename a heading across the buffers. Any failed expectation
-- ends Neovim with exit status 1 and says why on stderr; all of them met, status 0.
-- Run by test/lsp/neovim.test.ts: nvim --headless --clean -n -c "luafile session.lua", with
-- OPENWOP_ROOT (a private copy of the corpus) and OPENWOP_CLI (the built command line) set.

local root = assert(os.getenv('OPENWOP_ROOT'), 'OPENWOP_ROOT is not set')
local cli = assert(os.getenv('OPENWOP_CLI'), 'OPENWOP_CLI is not set')
local node = os.getenv('OPENWOP_NODE') or 'node'
local TIMEOUT = 60000

local function fail(message)
  io.stderr:write('neovim session: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

local function expect(ok, message)
  if not ok then error(message, 0) end
end

local function open(relative)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. relative))
  return vim.api.nvim_get_current_buf()
end

local function line_of(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then return i, col end
  end
  error('no line with ' .. needle, 0)
end

local function session()
  local client_id = vim.lsp.start_client({ name = 'openwop-spec', cmd = { node, cli, 'lsp', '--stdio' }, root_dir = root })
  expect(client_id ~= nil, 'the server did not start')
  local client = vim.lsp.get_client_by_id(client_id)

  local packs = open('spec/v2/core/connection-packs.md')
  vim.lsp.buf_attach_client(packs, client_id)
  local buf = open('spec/v2/core/security-defaults.md')
  vim.lsp.buf_attach_client(buf, client_id)
  expect(vim.wait(TIMEOUT, function() return client.initialized end, 50), 'the server did not initialize')

  -- Type a citation of a heading that does not exist: its diagnostic appears.
  local last = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, last, last, false, { '', 'See connection-packs.md §"Provider identityx".' })
  local typed = last + 2
  local found
  expect(vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == typed - 1 and d.code == 'links/section-ref' and d.message:find('no section §"Provider identityx"', 1, true) then found = d return true end
    end
    return false
  end, 50), 'no links/section-ref diagnostic on the typed line')

  -- A code action applies the finding's fix.
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = { start = { line = found.lnum, character = found.col }, ['end'] = { line = found.end_lnum, character = found.end_col } }, context = { diagnostics = { found.user_data.lsp } } }
  local response = client.request_sync('textDocument/codeAction', params, TIMEOUT, buf)
  expect(response and response.result, 'no answer to textDocument/codeAction')
  local fix
  for _, action in ipairs(response.result) do
    if action.title:find('^Fix links/section%-ref') then fix = action end
  end
  expect(fix ~= nil, 'no fix among the code actions')
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding or 'utf-16')
  local fixed = vim.api.nvim_buf_get_lines(buf, typed - 1, typed, false)[1]
  expect(fixed == 'See connection-packs.md §"Provider identity".', 'the fix left: ' .. tostring(fixed))
  expect(vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == typed - 1 and d.code == 'links/section-ref' then return false end
    end
    return true
  end, 50), 'the links/section-ref diagnostic stayed after the fix')

  -- Hover over the citation: the section's first paragraph.
  local row, col = line_of(buf, '§"Provider identity"](connection-packs.md')
  vim.api.nvim_win_set_cursor(0, { row, col + 3 })
  local position = vim.lsp.util.make_position_params()
  response = client.request_sync('textDocument/hover', position, TIMEOUT, buf)
  local hover = response and response.result and response.result.contents and response.result.contents.value or ''
  expect(hover:find('**Provider identity**', 1, true) ~= nil, 'hover did not show the section: ' .. hover)

  -- Definition: the heading in connection-packs.md.
  response = client.request_sync('textDocument/definition', position, TIMEOUT, buf)
  local location = response and response.result
  if location and location[1] then location = location[1] end
  expect(location and location.uri == vim.uri_from_bufnr(packs), 'definition went elsewhere: ' .. vim.inspect(location))
  local heading_row = line_of(packs, '## Provider identity')
  expect(location.range.start.line == heading_row - 1, 'definition at line ' .. tostring(location.range.start.line))

  -- References: the heading is cited from several files, JSON and YAML included.
  response = client.request_sync('textDocument/references', vim.tbl_extend('force', position, { context = { includeDeclaration = false } }), TIMEOUT, buf)
  local files = {}
  for _, ref in ipairs(response and response.result or {}) do files[vim.uri_to_fname(ref.uri):sub(#root + 2)] = true end
  expect(files['spec/v2/errors.json'] and files['api/v2/openapi.yaml'] and files['spec/v2/core/security-defaults.md'], 'references: ' .. vim.inspect(files))

  -- Completion after §" of a named document: its headings.
  last = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, last, last, false, { 'Also connection-packs.md §"Prov' })
  local text = vim.api.nvim_buf_get_lines(buf, last, last + 1, false)[1]
  vim.api.nvim_win_set_cursor(0, { last + 1, #text })
  response = client.request_sync('textDocument/completion', vim.lsp.util.make_position_params(), TIMEOUT, buf)
  local items = response and response.result or {}
  if items.items then items = items.items end
  local labels = {}
  for _, item in ipairs(items) do labels[item.label] = true end
  expect(labels['Provider identity'], 'completion offered: ' .. vim.inspect(vim.tbl_keys(labels)))
  vim.api.nvim_buf_set_lines(buf, last, last + 1, false, {})

  -- Rename the heading from a citation: the heading, the citation and its link fragment, applied to the buffers.
  vim.api.nvim_win_set_cursor(0, { row, col + 3 })
  response = client.request_sync('textDocument/rename', vim.tbl_extend('force', vim.lsp.util.make_position_params(), { newName = 'Provider naming' }), TIMEOUT, buf)
  expect(response and response.result, 'no answer to textDocument/rename: ' .. vim.inspect(response))
  vim.lsp.util.apply_workspace_edit(response.result, client.offset_encoding or 'utf-16')
  expect(vim.api.nvim_buf_get_lines(packs, heading_row - 1, heading_row, false)[1] == '## Provider naming', 'the heading was not renamed')
  local renamed = vim.api.nvim_buf_get_lines(buf, row - 1, row, false)[1]
  expect(renamed:find('§"Provider naming"](connection-packs.md#provider-naming)', 1, true) ~= nil, 'the citation was not renamed: ' .. renamed)
  local errors = vim.fn.bufnr(root .. '/spec/v2/errors.json')
  expect(errors ~= -1, 'the rename did not reach spec/v2/errors.json')
  local source = table.concat(vim.api.nvim_buf_get_lines(errors, 0, -1, false), '\n')
  expect(source:find('connection-packs.md §\\"Provider naming\\"', 1, true) ~= nil, 'errors.json was not renamed with its escapes')

  vim.lsp.stop_client(client_id)
end

local ok, message = pcall(session)
if not ok then fail(tostring(message)) else vim.cmd('qall!') end
