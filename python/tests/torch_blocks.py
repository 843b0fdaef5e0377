"""Transformer blocks written in torch.nn, as users write them: a BERT-style
post-LN encoder layer (nn.TransformerEncoderLayer), a GPT-2-style pre-LN
decoder block (causal self-attention written out, tanh GELU) and a
LLaMA-style decoder layer (RMSNorm, rotary embedding, grouped-query
attention, SwiGLU) that takes its KV cache as arguments and returns it
updated; and a whole LLaMA-style decoder's one-token decode step with a
fixed-capacity KV cache (Decoder) and its prompt step (Prefill). Shared by
the importer's tests, bench/models and bench/llm."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def bert_layer(d_model=64, heads=4, ffn=128):
    return nn.TransformerEncoderLayer(d_model, heads, ffn, dropout=0.1, activation="gelu",
                                      batch_first=True, norm_first=False)


class GPT2Block(nn.Module):
    def __init__(self, d_model=64, heads=4, seq=16):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(d_model)
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp_fc = nn.Linear(d_model, 4 * d_model)
        self.mlp_proj = nn.Linear(4 * d_model, d_model)
        self.register_buffer("bias", torch.tril(torch.ones(seq, seq)).view(1, 1, seq, seq))

    def forward(self, x):
        b, t, c = x.shape
        h = self.heads
        q, k, v = self.c_attn(self.ln_1(x)).split(c, dim=2)
        q = q.view(b, t, h, c // h).transpose(1, 2)
        k = k.view(b, t, h, c // h).transpose(1, 2)
        v = v.view(b, t, h, c // h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :t, :t] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        x = x + self.c_proj(y)
        return x + self.mlp_proj(F.gelu(self.mlp_fc(self.ln_2(x)), approximate="tanh"))


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rotary_tables(positions, head_dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
    freqs = torch.outer(positions.float(), inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


class LlamaLayer(nn.Module):
    """forward(x [B, T, D], k_cache, v_cache [B, KVH, P, hd], cos, sin [T, hd])
    -> (out [B, T, D], k [B, KVH, P + T, hd], v [B, KVH, P + T, hd])."""

    def __init__(self, d_model=64, heads=4, kv_heads=2, ffn=172):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, d_model // heads
        self.input_layernorm = RMSNorm(d_model)
        self.q_proj = nn.Linear(d_model, heads * self.hd, bias=False)
        self.k_proj = nn.Linear(d_model, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(d_model, kv_heads * self.hd, bias=False)
        self.o_proj = nn.Linear(heads * self.hd, d_model, bias=False)
        self.post_attention_layernorm = RMSNorm(d_model)
        self.gate_proj = nn.Linear(d_model, ffn, bias=False)
        self.up_proj = nn.Linear(d_model, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, d_model, bias=False)

    def forward(self, x, k_cache, v_cache, cos, sin):
        b, t, _ = x.shape
        h = self.input_layernorm(x)
        q = self.q_proj(h).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k_all = torch.cat([k_cache, k], dim=2)
        v_all = torch.cat([v_cache, v], dim=2)
        rep = self.heads // self.kv_heads
        kk = k_all[:, :, None].expand(b, self.kv_heads, rep, k_all.shape[2], self.hd)
        kk = kk.reshape(b, self.heads, k_all.shape[2], self.hd)
        vv = v_all[:, :, None].expand(b, self.kv_heads, rep, v_all.shape[2], self.hd)
        vv = vv.reshape(b, self.heads, v_all.shape[2], self.hd)
        scores = q @ kk.transpose(2, 3) / math.sqrt(self.hd)
        past = k_cache.shape[2]
        mask = torch.full((t, past + t), float("-inf")).triu(past + 1)
        att = F.softmax(scores + mask, dim=-1)
        y = (att @ vv).transpose(1, 2).reshape(b, t, self.heads * self.hd)
        x = x + self.o_proj(y)
        h = self.post_attention_layernorm(x)
        x = x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))
        return x, k_all, v_all


class DecodeLayer(nn.Module):
    def __init__(self, dim, heads, kv_heads, ffn):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, dim // heads
        self.input_layernorm = RMSNorm(dim)
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)
        self.post_attention_layernorm = RMSNorm(dim)
        self.gate_proj = nn.Linear(dim, ffn, bias=False)
        self.up_proj = nn.Linear(dim, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, dim, bias=False)

    def forward(self, x, k_cache, v_cache, cos, sin, write, visible):
        """x [B, S, D]: one token (S = 1, decode: ``write`` [1, 1, T, 1] the
        one-hot of its cache slot, ``visible`` [1, 1, 1, T] the slots it
        attends to) or a prompt at positions 0..S-1 (prefill: ``write`` None,
        the keys and values go to slots 0..S-1 and the tokens attend to each
        other through ``visible`` [1, 1, S, S], a causal mask)."""
        b, s = x.shape[0], x.shape[1]
        h = self.input_layernorm(x)
        q = self.q_proj(h).view(b, s, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, s, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.kv_heads, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if write is None:
            k_cache = torch.cat([k, k_cache[:, :, s:]], dim=2)
            v_cache = torch.cat([v, v_cache[:, :, s:]], dim=2)
            keys, values = k, v
        else:
            k_cache = torch.where(write, k, k_cache)  # write: [1, 1, T, 1]
            v_cache = torch.where(write, v, v_cache)
            keys, values = k_cache, v_cache
        rep = self.heads // self.kv_heads
        t = keys.shape[2]
        kk = keys[:, :, None].expand(b, self.kv_heads, rep, t, self.hd).reshape(
            b, self.heads, t, self.hd)
        vv = values[:, :, None].expand(b, self.kv_heads, rep, t, self.hd).reshape(
            b, self.heads, t, self.hd)
        scores = q @ kk.transpose(2, 3) / math.sqrt(self.hd)
        scores = scores.masked_fill(~visible, float("-inf"))
        y = (F.softmax(scores, dim=-1) @ vv).transpose(1, 2).reshape(b, s, -1)
        x = x + self.o_proj(y)
        h = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h)), k_cache, v_cache


class Decoder(nn.Module):
    """forward(token [1, 1] i64, position [1] i64, k0, v0, k1, v1, ...)
    -> (logits [1, vocab], k0', v0', ...)."""

    def __init__(self, layers, dim, heads, kv_heads, ffn, vocab, capacity):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(DecodeLayer(dim, heads, kv_heads, ffn)
                                    for _ in range(layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        cos, sin = rotary_tables(torch.arange(capacity), dim // heads)
        self.register_buffer("cos", cos)
        self.register_buffer("sin", sin)
        self.register_buffer("slots", torch.arange(capacity))

    def forward(self, token, position, *caches):
        x = self.embed_tokens(token)
        # The position's rotary row, as a one-hot product (static shapes).
        cos = (self.cos * (self.slots == position)[:, None]).sum(0, keepdim=True)
        sin = (self.sin * (self.slots == position)[:, None]).sum(0, keepdim=True)
        write = (self.slots == position).view(1, 1, -1, 1)
        visible = (self.slots <= position).view(1, 1, 1, -1)
        new = []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, caches[2 * i], caches[2 * i + 1], cos, sin, write, visible)
            new += [k, v]
        return (self.lm_head(self.norm(x)).view(1, -1), *new)


class Prefill(Decoder):
    """The prompt step of Decoder, with its parameters and buffers (a
    state_dict loads into both): forward(tokens [1, P] i64, k0, v0, k1, v1,
    ...) -> (logits of the last token [1, vocab], k0', v0', ...), the P
    tokens at positions 0..P-1 attending causally to each other, their keys
    and values written to cache slots 0..P-1 (the other slots as passed).
    Decoding goes on at position P."""

    def forward(self, tokens, *caches):
        p = tokens.shape[1]
        capacity = self.slots.shape[0]
        if p > capacity:
            raise ValueError(f"a prompt of {p} tokens does not fit a KV cache of {capacity}")
        x = self.embed_tokens(tokens)
        cos, sin = self.cos[:p], self.sin[:p]
        visible = torch.ones(p, p).tril().bool().view(1, 1, p, p)
        new = []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, caches[2 * i], caches[2 * i + 1], cos, sin, None, visible)
            new += [k, v]
        return (self.lm_head(self.norm(x[:, -1])).view(1, -1), *new)
