"""Thesis ch. 5 (000_211156f2009240b4.txt) and 002_9d55ef468949585c.txt §4 notions the count claims rest on: which
Count protocol, the ideal encryption scheme (Definition 9), the servers' and users' model, the context hierarchy.
"""

from __future__ import annotations

from privclaims.checks.readings import Definition, Reading

THESIS = "000_211156f2009240b4.txt"
ADS = "002_9d55ef468949585c.txt"

THESIS_PROTOCOL = Reading(
    "thesis Protocol 1",
    "users send m_i = E(b_i + r_i) (Definition 9's homomorphic scheme) to Server 2, which sums them and forwards "
    "S = Σ m_i to Server 1, which decrypts and releases D(S); Server 1 (key distribution) and Server 2 (aggregation) "
    "are honest-but-curious and collude with no one",
    f"{THESIS} §5.2–5.4 Protocol 1",
    quotes=((THESIS, "§5.4 Protocol 1", r"Each user i sends $m_i = E(b_i + r_i)$ to Server 2."),
            (THESIS, "§5.4 Protocol 1", r"Server 2 sums up all incoming messages m_i . It forwards $S = \sum m_i$ to Server 1."),
            (THESIS, "§5.4 Protocol 1", r"Server 1 decrypts s and releases the result $D(s)$.")))
PAPER_PROTOCOL = Reading(
    "002 Protocol 1",
    "each user draws a pad k_i uniform on Z_p and sends k_i to the server and m_i = b_i + r_i + k_i mod p to the proxy "
    "(2-Phase-Commit); the proxy forwards s = Σ m_i mod p; the server subtracts the k_i it received and releases "
    "Σ b_i + r_i; server and proxy are honest-but-curious and collude with no one",
    f"{ADS} §4.2.1 Protocol 1",
    quotes=((ADS, "§4.2.1 Protocol 1", r"Each user i uses 2-Phase-Commit to atomically send k_i to the server and $m_i=b_i+|r_i|+k_i \mod p$ to the proxy."),
            (ADS, "§4.2.1 Protocol 1", r"The proxy sums up all incoming messages m_i . It forwards $s = \sum m_i \mod p$ to the server.")))
COUNT_PROTOCOL = Definition(
    "count-protocol", "the Count protocol and its two servers (000 §5.2–5.4 Protocol 1; 002 §4.1–4.2.1 Protocol 1)",
    readings=(THESIS_PROTOCOL, PAPER_PROTOCOL),
    quotes=((THESIS, "§5.2", "The main mechanism we employ to build a scalable and robust protocol is to use two servers: one responsible for key distribution and the other responsible for aggregation."),),
    note="the documents print two constructions under one name: 000's encrypts under a homomorphic scheme (one message "
         "per user; Server 1 decrypts whatever Server 2 forwards), 002's pads each value with a key the user sends to the "
         "server (two messages per user; the server subtracts the keys it received). A claim about 'Count' is owed an "
         "outcome under each, unless it names one (then the other is not applicable, with the quote). The exact view "
         "laws (theory/count/views.py) realise the thesis's ideal scheme by one-time pads, the one ideal homomorphic "
         "scheme that can be enumerated; a claim whose verdict turns on the scheme (count.thm10) runs Paillier.")

IDEAL_ENCRYPTION = Definition(
    "ideal-encryption", "Definition 9, the ideal homomorphic encryption scheme (000 §5.2, thesis only)",
    readings=(Reading(
        "secret over the unknown key",
        "correct: D(E(p)) = p; secret: Pr[E(p) = m] = Pr[E(p') = m] for all plaintexts p, p' and ciphertexts m, the "
        "probability taken over the key (and E's coins) the observer does not know; homomorphic: E(p) + E(p') = E(p + p')",
        f"{THESIS} §5.2 Definition 9 and 'we assume perfect security, i.e. that the ciphertext leaks no information at "
        "all about the message it encrypts'",
        quotes=((THESIS, "§5.2 Definition 9", r"This scheme is correct, i.e., for all plain texts $p, p' : D(E(p)) = p$. It is secret, i.e., $\Pr[E(p) = m] = \Pr[E(p') = m]$."),
                (THESIS, "§5.2", "In the following analysis we assume perfect security, i.e. that the ciphertext leaks no information at all about the message it encrypts."))),),
    note="read keylessly (D one fixed function known to everyone, secrecy over E's coins only) no scheme is both correct "
         "and secret: E(p) and E(p') would have the same law, and D would map it to both p and p' (count.def9 shows it by "
         "brute force); the thesis means an ideal model (“We here work with an ideal model of the encryption scheme”).")

HONEST_FRACTION = Definition(
    "count-assumptions", "the servers' and users' model of Count (000 §5.2 assumptions 1–2; 002 §4.1)",
    readings=(Reading(
        "honest-but-curious servers, at most tN bad users",
        "both servers follow the protocol and collude with no one; at most a t fraction of the N users are malicious "
        "(arbitrary messages, colluding among themselves) or unavailable, so at least (1 − t)N users are available, "
        "honest and non-colluding; channels are secure, reliable and authenticated",
        f"{THESIS} §5.2 assumptions 1–2",
        quotes=((THESIS, "§5.2", "The two servers honestly follow the protocol. They are curious but do not collude with anyone."),
                (THESIS, "§5.2", "At most a t fraction of users are malicious or unavailable during the protocol."),
                (THESIS, "§5.2", "We assume secure, reliable, and authenticated communication channels between servers and users."))),),
    note="002 §4.1 states the same two assumptions for 'server and proxy'; which servers they are is count-protocol's "
         "choice, not a second reading of the assumptions.")

HIERARCHY = Definition(
    "context-hierarchy",
    "the context hierarchy H and the ad log of Estimates / TopDown (000 §5.5; 002 §4.4): a rooted tree of contexts, "
    "users' entries (context, ad, click) at its nodes, at most m entries kept per user",
    readings=(Reading(
        "rooted tree, entries counted at every ancestor",
        "H is a rooted tree of height(H) levels and fan-out at most branch(H); an entry of a user at context c counts "
        "for c and every ancestor of c (count_v, and clicks_{a,v} / no_clicks_{a,v} for the entry's ad a); at most m "
        "entries per user are kept (Algorithm 7); b ads at most bid on one context (Proposition 8); the number of ads "
        "and of users is otherwise unbounded",
        f"{THESIS} §5.5.3 Algorithms 7–8, Proposition 8, proof of Corollary 2",
        quotes=((THESIS, "§5.5.3 proof of Corollary 2", "Within a level of the hierarchy the L_2 -sensitivity of each count is at most m ."),)),),
    note="the proof of Corollary 2 assumes level i has 2^i nodes (a binary tree); Proposition 8 allows any branch(H).")
