#!/bin/sh
# waved: runs the device service with the Node that ships in this bundle.
# A symlink to this file (/usr/local/bin/waved) works: the bundle is found from the real path.
here=$(dirname "$(readlink -f "$0")")
exec "$here/node/bin/node" "$here/lib/waved.mjs" "$@"
