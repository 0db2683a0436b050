// The most common passwords of at least six characters (from public breach-frequency lists), refused at sign-up
// and reset. Kept short on purpose: the goal is to stop the obvious, not to be a dictionary.
export const COMMON_PASSWORDS = new Set(
  `123456 1234567 12345678 123456789 1234567890 password password1 password12 password123 qwerty qwerty1 qwerty123
qwertyuiop 111111 1111111 11111111 000000 00000000 123123 123321 654321 666666 777777 888888 999999 121212 112233
abc123 abcdef abcd1234 iloveyou 1q2w3e 1q2w3e4r 1q2w3e4r5t 1qaz2wsx zaq12wsx qazwsx monkey dragon letmein
football baseball basketball soccer hockey welcome welcome1 sunshine princess master shadow superman batman
trustno1 starwars whatever freedom michael jennifer jordan23 charlie michelle hunter2 hunter ashley nicole
daniel thomas jessica pepper killer access secret passw0rd p@ssw0rd p@ssword admin123 administrator
changeme login123 computer internet samsung google mustang ginger cookie chocolate butterfly flower purple
liverpool chelsea arsenal football1 loveme lovely 123qwe qwe123 asdfgh asdfghjkl zxcvbn zxcvbnm 987654321
123654 147258 159753 741852963 a123456 aa123456 abc12345 q1w2e3r4 q1w2e3r4t5 asd123 azerty 7777777 5555555
parley parley123 chatapp letmein1 matrix summer winter autumn spring forever family friends`.split(/\s+/),
);

export const isCommonPassword = (password: string): boolean => COMMON_PASSWORDS.has(password.toLowerCase());
