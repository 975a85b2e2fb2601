"""A finding of the bring-up: what is wrong, the part to check (board_config's names: U1-U23,
Q1-Q23, S0-S3, A0-A3, EN0/EN1, GPx) and what to do, as {"code", "part", "text"}."""


def finding(code, part, text):
    return {"code": code, "part": part, "text": text}
