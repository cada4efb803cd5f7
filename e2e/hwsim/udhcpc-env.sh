#!/bin/sh
# udhcpc hook for the phone: records what the DHCP server handed out, then applies the address.
if [ "$1" = bound ]; then
  printf 'ip=%s\nmask=%s\nrouter=%s\ndns=%s\nlease=%s\nserverid=%s\nopt114=%s\n' "$ip" "$mask" "$router" "$dns" "$lease" "$serverid" "$opt114" > /tmp/udhcpc-env.txt
fi
exec /app/udhcpc.sh "$@"
