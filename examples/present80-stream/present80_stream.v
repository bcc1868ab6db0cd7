// PRESENT-80 (Bogdanov et al., CHES 2007), encryption and decryption, one round per clock,
// "streams" protocol: three AXI-Stream-like channels (a transfer on a rising edge where valid
// and ready are both high; o_valid never waits for o_ready). Plain Verilog-2005, one clock.
//
// Byte order: key and blocks are BYTE-REVERSED with respect to the paper's test vectors: byte 0
// (the most significant byte of the paper's hex strings, key bits k79..k72, state bits 63..56)
// is in bits 7:0 of k_data / i_data / o_data.
//
// Key channel: on a transfer the core stores the key and runs the key schedule forward 31
// clocks to reach the state of the last round key K32, which decryption starts from; it then
// raises i_ready (32 clocks after the key transfer). k_ready is high when no block is being
// computed and no key schedule is running. A block offered on the same edge as a key has
// priority (k_ready is low while i_valid and i_ready are high), so a key always applies to the
// blocks accepted after it.
// Input channel: i_data, i_dec (1 = decrypt), i_valid, i_ready. The transfer edge computes
// round 1; rounds 2..31 and the final key addition follow, and the result is written to the
// output register on the 31st edge: one block every 31 clocks, latency 31 clocks.
// Output channel: o_data, o_valid, o_ready. A block may be accepted while the previous result
// waits; it stalls at its last round until the output register is free.
// Stored: the 80-bit key (K1 state, where encryption starts) and the K32 state (where
// decryption starts); the working key register steps forward (encryption) or backward
// (decryption) one round key per clock.
// rst: synchronous, active high; forgets the key. test_mode: unused, must be tied to 0.
module present80_stream (
    input  wire        clk,
    input  wire        rst,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire        test_mode,       // unused; tie to 0
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [79:0] k_data,
    input  wire        k_valid,
    output wire        k_ready,
    input  wire [63:0] i_data,
    input  wire        i_dec,
    input  wire        i_valid,
    output wire        i_ready,
    output reg  [63:0] o_data,
    output reg         o_valid,
    input  wire        o_ready
);

    // ------------------------------------------------------------------ functions
    function [3:0] sbox;  // the PRESENT S-box
        input [3:0] x;
        begin
            case (x)
                4'h0: sbox = 4'hc;  4'h1: sbox = 4'h5;  4'h2: sbox = 4'h6;  4'h3: sbox = 4'hb;
                4'h4: sbox = 4'h9;  4'h5: sbox = 4'h0;  4'h6: sbox = 4'ha;  4'h7: sbox = 4'hd;
                4'h8: sbox = 4'h3;  4'h9: sbox = 4'he;  4'ha: sbox = 4'hf;  4'hb: sbox = 4'h8;
                4'hc: sbox = 4'h4;  4'hd: sbox = 4'h7;  4'he: sbox = 4'h1;  default: sbox = 4'h2;
            endcase
        end
    endfunction

    function [3:0] sbox_inv;
        input [3:0] x;
        begin
            case (x)
                4'h0: sbox_inv = 4'h5;  4'h1: sbox_inv = 4'he;  4'h2: sbox_inv = 4'hf;  4'h3: sbox_inv = 4'h8;
                4'h4: sbox_inv = 4'hc;  4'h5: sbox_inv = 4'h1;  4'h6: sbox_inv = 4'h2;  4'h7: sbox_inv = 4'hd;
                4'h8: sbox_inv = 4'hb;  4'h9: sbox_inv = 4'h4;  4'ha: sbox_inv = 4'h6;  4'hb: sbox_inv = 4'h3;
                4'hc: sbox_inv = 4'h0;  4'hd: sbox_inv = 4'h7;  4'he: sbox_inv = 4'h9;  default: sbox_inv = 4'ha;
            endcase
        end
    endfunction

    function [63:0] slayer;
        input [63:0] x;
        integer j;
        begin
            for (j = 0; j < 16; j = j + 1)
                slayer[4*j +: 4] = sbox(x[4*j +: 4]);
        end
    endfunction

    function [63:0] slayer_inv;
        input [63:0] x;
        integer j;
        begin
            for (j = 0; j < 16; j = j + 1)
                slayer_inv[4*j +: 4] = sbox_inv(x[4*j +: 4]);
        end
    endfunction

    function [63:0] player;  // bit i moves to position 16*i mod 63; bit 63 stays
        input [63:0] x;
        integer i;
        begin
            for (i = 0; i < 63; i = i + 1)
                player[(16*i) % 63] = x[i];
            player[63] = x[63];
        end
    endfunction

    function [63:0] player_inv;
        input [63:0] x;
        integer i;
        begin
            for (i = 0; i < 63; i = i + 1)
                player_inv[i] = x[(16*i) % 63];
            player_inv[63] = x[63];
        end
    endfunction

    function [79:0] key_fwd;  // key register update with round counter rc: K_i -> K_(i+1)
        input [79:0] k;
        input [4:0]  rc;
        reg   [79:0] t;
        begin
            t         = {k[18:0], k[79:19]};          // rotate left by 61
            t[79:76]  = sbox(t[79:76]);
            t[19:15]  = t[19:15] ^ rc;
            key_fwd   = t;
        end
    endfunction

    function [79:0] key_bwd;  // inverse: K_(i+1) -> K_i
        input [79:0] k;
        input [4:0]  rc;
        reg   [79:0] t;
        begin
            t         = k;
            t[19:15]  = t[19:15] ^ rc;
            t[79:76]  = sbox_inv(t[79:76]);
            key_bwd   = {t[60:0], t[79:61]};          // rotate right by 61
        end
    endfunction

    function [79:0] swap80;  // byte order reversal
        input [79:0] x;
        integer b;
        begin
            for (b = 0; b < 10; b = b + 1)
                swap80[8*b +: 8] = x[8*(9 - b) +: 8];
        end
    endfunction

    function [63:0] swap64;
        input [63:0] x;
        integer b;
        begin
            for (b = 0; b < 8; b = b + 1)
                swap64[8*b +: 8] = x[8*(7 - b) +: 8];
        end
    endfunction

    // ------------------------------------------------------------------ registers
    reg [79:0] key1;       // K1 state (the key as given)
    reg [79:0] key32;      // K32 state
    reg [79:0] wk;         // working key register
    reg [63:0] st;         // cipher state
    reg [4:0]  rc;         // round counter of the round being computed
    reg        dec;        // the block in progress is a decryption
    reg        busy;       // a block is in progress
    reg        ks;         // key schedule run-up in progress
    reg        key_ok;     // key32 is valid

    // ------------------------------------------------------------------ handshakes
    wire idle   = !busy && !ks;
    assign i_ready = idle && key_ok;
    assign k_ready = idle && !(i_valid && key_ok);
    wire i_fire = i_valid && i_ready;
    wire k_fire = k_valid && k_ready;

    // ------------------------------------------------------------------ round
    // The transfer edge computes round 1 directly from the channel.
    wire [63:0] src_st  = i_fire ? swap64(i_data) : st;
    wire [79:0] src_k   = i_fire ? (i_dec ? key32 : key1) : wk;
    wire [4:0]  src_rc  = i_fire ? (i_dec ? 5'd31 : 5'd1) : rc;
    wire        src_dec = i_fire ? i_dec : dec;

    wire [63:0] x       = src_st ^ src_k[79:16];
    wire [63:0] new_st  = src_dec ? slayer_inv(player_inv(x)) : player(slayer(x));
    wire [79:0] k_f     = key_fwd(src_k, src_rc);
    wire [79:0] k_b     = key_bwd(src_k, src_rc);
    wire [79:0] new_k   = src_dec ? k_b : k_f;
    wire [63:0] result  = new_st ^ new_k[79:16];   // final key addition (K32, or K1)
    wire        last    = src_dec ? (src_rc == 5'd1) : (src_rc == 5'd31);

    // a block steps unless it is at its last round and the output register is still full
    wire stall = last && o_valid && !o_ready;
    wire step  = i_fire || (busy && !stall);

    always @(posedge clk) begin
        if (k_fire) begin
            key1 <= swap80(k_data);
            wk   <= swap80(k_data);
            rc   <= 5'd1;
        end else if (ks) begin
            wk <= k_f;                             // src_k = wk, src_rc = rc here
            rc <= rc + 5'd1;
            if (rc == 5'd31)
                key32 <= k_f;
        end else if (step) begin
            st  <= new_st;
            wk  <= new_k;
            rc  <= src_dec ? src_rc - 5'd1 : src_rc + 5'd1;
            dec <= src_dec;
            if (last)
                o_data <= swap64(result);
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy    <= 1'b0;
            ks      <= 1'b0;
            key_ok  <= 1'b0;
            o_valid <= 1'b0;
        end else begin
            if (o_valid && o_ready)
                o_valid <= 1'b0;
            if (k_fire) begin
                ks     <= 1'b1;
                key_ok <= 1'b0;
            end else if (ks) begin
                if (rc == 5'd31) begin
                    ks     <= 1'b0;
                    key_ok <= 1'b1;
                end
            end else if (step) begin
                busy <= !last;
                if (last)
                    o_valid <= 1'b1;
            end
        end
    end

endmodule
