/*
 * The peer of bench/psk: derives WPA2 PSKs in one process with OpenSSL's PKCS5_PBKDF2_HMAC_SHA1,
 * the routine wpa_passphrase links and Node's crypto.pbkdf2 calls. Reads "ssid<TAB>passphrase"
 * lines from stdin, derives them all in one timed loop, and prints one JSON line: the number of
 * derivations, the loop's wall and CPU time in nanoseconds, and the first PSK in hex.
 *
 *   cc -O2 -o pbkdf2 pbkdf2.c -lcrypto      (Debian: libssl-dev)
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CASES 100000

static long long ns(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(void) {
  static char ssid[MAX_CASES][33];
  static char pass[MAX_CASES][64];
  char line[256];
  int n = 0;
  while (n < MAX_CASES && fgets(line, sizeof line, stdin)) {
    char *tab = strchr(line, '\t');
    if (!tab) continue;
    *tab = '\0';
    line[strcspn(tab + 1, "\n") + (tab + 1 - line)] = '\0';
    if (strlen(line) > 32 || strlen(tab + 1) > 63) return 2;
    strcpy(ssid[n], line);
    strcpy(pass[n], tab + 1);
    n++;
  }
  unsigned char psk[32];
  unsigned char first[32];
  long long wall0 = ns(CLOCK_MONOTONIC);
  long long cpu0 = ns(CLOCK_PROCESS_CPUTIME_ID);
  for (int i = 0; i < n; i++) {
    if (!PKCS5_PBKDF2_HMAC_SHA1(pass[i], (int)strlen(pass[i]), (const unsigned char *)ssid[i],
                                (int)strlen(ssid[i]), 4096, 32, psk))
      return 1;
    if (i == 0) memcpy(first, psk, 32);
  }
  long long cpu = ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
  long long wall = ns(CLOCK_MONOTONIC) - wall0;
  printf("{\"n\":%d,\"wallNs\":%lld,\"cpuNs\":%lld,\"first\":\"", n, wall, cpu);
  for (int i = 0; i < 32 && n > 0; i++) printf("%02x", first[i]);
  printf("\"}\n");
  return 0;
}
