#!/bin/sh
# udhcpc hook for the guest: apply address and route only.
case "$1" in
  deconfig) ip -4 addr flush dev "$interface"; ip link set "$interface" up ;;
  bound|renew)
    ip -4 addr flush dev "$interface"
    ip addr add "$ip/${mask:-24}" dev "$interface"
    [ -n "$router" ] && ip route replace default via "${router%% *}" dev "$interface"
    ;;
esac
exit 0
